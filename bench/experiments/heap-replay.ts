/**
 * The event heap's work alone, on a real run's operations: records every heap call the simulator
 * makes in a run (bench/bbr.ts's 100-flow dumbbell by default), then replays them on fresh heaps,
 * alternating, with the deferred pop (EventHeap.consumeTop: the handler's first push takes the
 * dispatched event's place) and without it (the consumed top removed at once, then the push sifted
 * up: what the loop did before), and prints ns of heap work per dispatched event and the sift
 * levels per event. Both replays must see the same tops (the checksum line).
 *
 * `node --import tsx --import ./bench/dist.mjs bench/experiments/heap-replay.ts [variant] [flows] [seconds]`
 *
 * Issue 24, BBR at 100 flows, 3 s (1.84 M events): 5.8 sift-down levels per event, 0.37 pushes; with
 * the deferred pop 0.2 of them replace the top and the pushes' sift-up levels fall 0.11 -> 0.02.
 */
import { EventHeap } from '../../src/engine/heap.js';
import { buildPacketModel } from '../../src/packet/run.js';
import type { Variant } from '../../src/variants.js';
import { manyFlowsScenario } from '../flows.js';

const variant = (process.argv[2] ?? 'bbr') as Variant;
const flows = Number(process.argv[3] ?? 100);
const durationS = Number(process.argv[4] ?? 3);

const PUSH = 1;
const REPLACE_FROM = 2;
const REMOVE = 3;
const CONSUME = 4;
const PEEK = 5;

const s = manyFlowsScenario(flows, durationS);
s.variant = variant;
const m = buildPacketModel(s);
// The simulator's heap, wrapped per instance (a private field: this is a bench, not an API).
const heap = (m.sim as unknown as { heap: EventHeap }).heap;
let ops = new Float64Array(1 << 20);
let k = 0;
const rec = (op: number, t: number, q: number): void => {
  if (k + 3 > ops.length) {
    const grown = new Float64Array(2 * ops.length);
    grown.set(ops);
    ops = grown;
  }
  ops[k++] = op;
  ops[k++] = t;
  ops[k++] = q;
};
// A removeTop inside peek (the deferred pop's own) is part of the recorded peek, not a call of the loop's.
let insidePeek = false;
const proto = EventHeap.prototype;
const h = heap as unknown as Record<string, (...a: unknown[]) => unknown>;
h.push = (t, q, kind, arg) => (rec(PUSH, t as number, q as number), proto.push.call(heap, t as number, q as number, kind as number, arg as number));
h.pushAfter = (d, q, kind, arg) => (rec(PUSH, heap.baseNs + (d as number), q as number), proto.pushAfter.call(heap, d as number, q as number, kind as number, arg as number));
h.replaceTopFrom = (src, at, kind) => {
  const a = src as Float64Array;
  rec(REPLACE_FROM, a[at as number]!, a[(at as number) + 1]!);
  proto.replaceTopFrom.call(heap, a, at as number, kind as number);
};
h.removeTop = () => {
  if (!insidePeek) rec(REMOVE, 0, 0);
  proto.removeTop.call(heap);
};
h.consumeTop = () => (rec(CONSUME, 0, 0), proto.consumeTop.call(heap));
h.peek = () => {
  rec(PEEK, 0, 0);
  insidePeek = true;
  const r = proto.peek.call(heap);
  insidePeek = false;
  return r;
};
m.sim.run(durationS * 1e9);
const events = m.sim.events;
console.log(`${variant}, ${flows} flows, ${durationS} s: ${events} events, ${k / 3} heap calls`);

/** Replays the calls; `deferred` false removes a consumed top at once. Returns a checksum of the tops seen. */
function replay(deferred: boolean): number {
  const hp = new EventHeap(1024);
  const key = new Float64Array(2);
  let sum = 0;
  for (let i = 0; i < k; i += 3) {
    const op = ops[i]!;
    if (op === PUSH) hp.push(ops[i + 1]!, ops[i + 2]!, 0, 0);
    else if (op === REPLACE_FROM) {
      key[0] = ops[i + 1]!;
      key[1] = ops[i + 2]!;
      hp.replaceTopFrom(key, 0, -1);
    } else if (op === REMOVE) hp.removeTop();
    else if (op === CONSUME) {
      if (deferred) hp.consumeTop();
      else hp.removeTop();
    } else if (hp.peek()) sum += hp.topSeq;
  }
  return sum;
}

const ns: Record<string, number[]> = { 'pop + push': [], 'deferred pop': [] };
const sums = new Set<number>();
for (let r = 0; r < 8; r++) {
  for (const deferred of r % 2 === 0 ? [false, true] : [true, false]) {
    const c0 = process.cpuUsage();
    sums.add(replay(deferred));
    const c = process.cpuUsage(c0);
    ns[deferred ? 'deferred pop' : 'pop + push']!.push(((c.user + c.system) * 1e3) / events);
  }
}
console.log(`checksum of the tops: ${sums.size === 1 ? 'equal' : 'DIFFERENT'} (${[...sums].join(', ')})`);
for (const [name, xs] of Object.entries(ns)) console.log(`${name.padEnd(13)} ns of heap work per event: ${xs.map((x) => x.toFixed(1)).join(' ')}`);
