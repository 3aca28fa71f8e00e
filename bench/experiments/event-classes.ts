/**
 * Where a many-flow run's time goes by event class: each dispatch is timed (performance.now around
 * the handler: wall time, so on a shared machine every class stretches alike, and the timer's own
 * cost is in each; compare shares and variants, not absolute ns) and classed by kind, and arrivals
 * by direction and hop (data hop 0: the sender's access
 * link's far end, hop 1 the bottleneck's, hop 2 the receiver's, where the segment is delivered; ack
 * hop 2: the ACK reaches its sender).
 *
 * `node --import tsx --import ./bench/dist.mjs bench/experiments/event-classes.ts [variant] [flows] [seconds] [all|summary]`
 *
 * Issue 24, 100 flows on bench/bbr.ts's dumbbell, 5 s, record all, load ~6 (fifteenth session): BBR 3.06 M
 * events, CUBIC 1.94 M for the same goodput. BBR's receivers ACK every segment (ack hop 2 is 13.4% of
 * its events, data hop 2 13.6%: holes in the receive buffer persist, RFC 5681 4.2), CUBIC's every
 * second (11.8% vs 21.4%). Per event: BBR ACK at its sender 2180 ns (42% of BBR's time; CUBIC's 3030 ns
 * include its sends, CUBIC sending from the ACK path), EV_PACE 1210 ns (16% of events, 28% of the
 * time: one paced departure, its hop into the access link and the timer re-armed), data delivery
 * 614 vs 526 ns, network hops 140-330 ns. BBR's events-per-CPU-second ratio to CUBIC is thus set by
 * its ACK per segment and per-ACK model work, not by the engine's per-event cost.
 */
import { buildPacketModel } from '../../src/packet/run.js';
import { F_HOP, F_TYPE, ROW_SLOTS } from '../../src/net/packets.js';
import { EV_ARRIVE } from '../../src/packet/events.js';
import type { EventSink } from '../../src/engine/simulator.js';
import type { Variant } from '../../src/variants.js';
import { manyFlowsScenario } from '../flows.js';

const variant = (process.argv[2] ?? 'bbr') as Variant;
const flows = Number(process.argv[3] ?? 100);
const durationS = Number(process.argv[4] ?? 5);
const record = process.argv[5] === 'summary' ? 'summary' : 'all';

const s = manyFlowsScenario(flows, durationS);
s.variant = variant;
const m = buildPacketModel(s, { record });
// The model's own dispatch and packet rows (private: this is a bench, not an API).
const sink = (m.sim as unknown as { sink: EventSink }).sink;
const pool = (m.net as unknown as { pool: { rows: Float64Array } }).pool;
const KINDS = 32;
const timeMs = new Float64Array(64);
const count = new Float64Array(64);
m.sim.setDispatch((kind, arg) => {
  let c = KINDS + kind;
  if (kind === EV_ARRIVE) {
    const b = arg * ROW_SLOTS;
    c = pool.rows[b + F_TYPE]! * 8 + pool.rows[b + F_HOP]!;
  }
  const t0 = performance.now();
  sink.handle(kind, arg);
  timeMs[c]! += performance.now() - t0;
  count[c]!++;
});
const c0 = process.cpuUsage();
m.sim.run(durationS * 1e9);
const cpu = process.cpuUsage(c0);
const events = count.reduce((a, b) => a + b, 0);
const total = timeMs.reduce((a, b) => a + b, 0);
console.log(`${variant}, ${flows} flows, ${durationS} s, record ${record}: ${(events / 1e6).toFixed(2)} M events, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} CPU-s (timed)`);
const names = ['data', 'ack'];
for (let c = 0; c < 64; c++) {
  if (count[c] === 0) continue;
  const label = c < KINDS ? `${names[c >> 3]} hop ${c & 7}` : `kind ${c - KINDS}`;
  console.log(`${label.padEnd(10)} ${((100 * count[c]!) / events).toFixed(1).padStart(5)}% of events ${((100 * timeMs[c]!) / total).toFixed(1).padStart(5)}% of time ${((1e6 * timeMs[c]!) / count[c]!).toFixed(0).padStart(7)} ns/event`);
}
