/**
 * The packet engine's floor in JavaScript (figures, not pass/fail; issue 24): how many events per
 * CPU-second this design reaches when the per-event work is taken away layer by layer, each figure
 * timed in one process with the in-process reference around it (bench/reference.ts).
 *
 * - `core`: the event core alone (src/engine/simulator.ts: heap, channels, the run loop, a dispatch)
 *   with the dumbbell's shape: one FIFO channel per link direction (the bottleneck's two shared by
 *   all flows), two lazily re-armed timers per flow, the same tokens in flight; each event only
 *   re-queues its token on the channel of its flow's next link. No packet rows, no links, no TCP.
 * - `network`: the real network (src/net/dumbbell.ts: packet pool, links and their drop-tail queues,
 *   paths, delivery) of the scenario, under a transport with no TCP in it: each flow keeps a fixed
 *   window of segments in flight, the receiver answers every second segment, each ACK tops the
 *   window up (segments a queue dropped leave the flight at the next ACK).
 *   The same events per data segment as TCP (one per link crossed, ACKs every second segment), the
 *   same queues, none of the sender's or receiver's work.
 * - `engine`: the full engine on the same scenario (runPacket's model, record 'summary').
 *
 * What TCP costs per event is engine - network (in ns per event), what the links and packets cost
 * network - core. If `network` is itself below a target, no change to TCP alone can reach it.
 *
 * `npm run bench -- floor`, or standalone:
 * `node --import tsx --import ./bench/dist.mjs bench/floor.ts [--large-duration 20] [--flows 1000] [--flows-duration 30]`
 */
import { pathToFileURL } from 'node:url';
import { Simulator, secondsToNs } from '../src/engine/simulator.js';
import { LazyTimer } from '../src/engine/timer.js';
import { Dumbbell } from '../src/net/dumbbell.js';
import { EV_ARRIVE, EV_APP_START, EV_DELACK, EV_RTO } from '../src/packet/events.js';
import { buildPacketModel } from '../src/packet/run.js';
import { presetScenario } from '../src/scenario/presets.js';
import { bdpPackets } from '../src/scenario/path.js';
import type { Scenario } from '../src/scenario/types.js';
import { manyFlowsScenario } from './flows.js';
import { withReference } from './reference.js';

interface Figure {
  events: number;
  cpuS: number;
}

function timed(run: () => number): Figure & { refRate: number } {
  const { value, refRate } = withReference(() => {
    const c0 = process.cpuUsage();
    const events = run();
    const c = process.cpuUsage(c0);
    return { events, cpuS: (c.user + c.system) / 1e6 };
  });
  return { ...value, refRate };
}

/** Issue 24's large case: ns3-normal with 10 Gbit/s / 0.1 ms access links, no random loss, SACK on. */
export function largeScenario(durationS: number): Scenario {
  const s = presetScenario('ns3-normal', 'reno', { durationS, accessBps: 10e9, accessDelayS: 1e-4 });
  s.bottleneck.loss.rate = 0;
  s.tcp.sack = true;
  return s;
}

/**
 * The event core alone, with the dumbbell's channels: one FIFO channel per link direction (the two
 * bottleneck directions shared by all flows, each flow's own access links), `tokens` tokens per flow
 * going round the flow's `hops` links, and two lazily re-armed timers per flow. Each event only
 * queues its token on the next link's channel (a FIFO: never before the channel's last), and every
 * eighth re-arms the flow's retransmission timer.
 */
function coreOnly(events: number, flows: number, hops: number, tokens: number, hopNs: readonly number[]): number {
  // Channel of hop h of flow f: the bottleneck's two directions are channels 0 and 1, at hops
  // hops / 2 - 1 (forward) and hops - 2 (reverse); every other hop is the flow's own link.
  const bottleneckHop = hops / 2 - 1;
  const reverseHop = hops - 2;
  const channelOf = (f: number, h: number): number => (h === bottleneckHop ? 0 : h === reverseHop ? 1 : 2 + f * hops + h);
  const channels = 2 + flows * hops;
  let sim: Simulator;
  let left = events;
  const lastNs = new Float64Array(channels);
  const queue = (token: number, spanNs: number): void => {
    const f = Math.floor(token / hops);
    const c = channelOf(f, token - f * hops);
    const t = Math.max(sim.nowNs + spanNs, lastNs[c]!);
    lastNs[c] = t;
    sim.scheduleOnChannelAfter(c, t - sim.nowNs, token);
  };
  const dispatch = (kind: number, arg: number): void => {
    if (kind === EV_ARRIVE) {
      const flow = Math.floor(arg / hops);
      const hop = (arg - flow * hops + 1) % hops;
      if (--left > 0) queue(flow * hops + hop, hopNs[hop]!);
      if ((left & 7) === 0) rto[flow]!.armAt(sim.nowNs + 200_000_000);
    } else if (kind === EV_RTO) rto[arg]!.fire();
    else if (kind === EV_DELACK) delAck[arg]!.fire();
  };
  sim = new Simulator(dispatch);
  const rto = Array.from({ length: flows }, (_, i) => new LazyTimer(sim, EV_RTO, i));
  const delAck = Array.from({ length: flows }, (_, i) => new LazyTimer(sim, EV_DELACK, i));
  for (let c = 0; c < channels; c++) sim.createChannel(EV_ARRIVE);
  for (let f = 0; f < flows; f++) {
    for (let k = 0; k < tokens; k++) queue(f * hops + (k % hops), hopNs[k % hops]! + 3152 * k + 1000 * f);
    delAck[f]!.armAt(200_000_000 + f);
  }
  sim.run(Number.MAX_SAFE_INTEGER);
  return sim.events;
}

/**
 * The network under a transport without TCP: flow i keeps `window` segments in flight (a segment
 * dropped by a queue leaves the flight), the receiver ACKs every second segment, each ACK sends more.
 * Returns the events; `arrivedOut` (when given) gets each flow's delivered segments, and `onEvent`
 * sees every event before it runs (bench/experiments/wasm-network.ts checks its WebAssembly port
 * against all three; without `onEvent` the dispatch is the plain one).
 */
export function networkOnly(s: Scenario, window: number, arrivedOut?: Int32Array, onEvent?: (nowNs: number, kind: number, arg: number) => void): number {
  const sim = new Simulator(() => undefined);
  const net = new Dumbbell(sim, s);
  const n = s.flows.length;
  const mss = s.mssBytes;
  const highTx = new Float64Array(n);
  const inFlight = new Int32Array(n);
  const arrived = new Int32Array(n);
  const stopNs = s.flows.map((f) => secondsToNs(f.stopS ?? s.durationS));
  const noBlocks = new Float64Array(6);
  const dropped = new Int32Array(n);
  const fill = (flow: number): void => {
    if (sim.nowNs >= stopNs[flow]!) return;
    // The flight is topped up first: a queue drop during the sends below is counted apart.
    const want = window - inFlight[flow]!;
    inFlight[flow] = window;
    for (let k = 0; k < want; k++) {
      net.sendData(flow, highTx[flow]!, mss, false);
      highTx[flow] = highTx[flow]! + mss;
    }
  };
  net.onQueueDrop = (flow) => {
    dropped[flow]!++;
  };
  net.setEndpoints({
    deliverData: (flow, seq, len, ts) => {
      inFlight[flow]!--;
      if (++arrived[flow]! % 2 === 0) net.sendAck(flow, seq + len, ts, 1 << 30, 0, noBlocks, false);
    },
    deliverAck: (flow) => {
      inFlight[flow] = inFlight[flow]! - dropped[flow]!;
      dropped[flow] = 0;
      fill(flow);
    },
  });
  const dispatch = (kind: number, arg: number): void => {
    if (kind === EV_ARRIVE) net.onArrive(arg);
    else if (kind === EV_APP_START) fill(arg);
  };
  sim.setDispatch(
    onEvent === undefined
      ? dispatch
      : (kind, arg) => {
          onEvent(sim.nowNs, kind, arg);
          dispatch(kind, arg);
        },
  );
  s.flows.forEach((f, i) => sim.scheduleAt(secondsToNs(f.startS), EV_APP_START, i));
  sim.run(secondsToNs(s.durationS));
  arrivedOut?.set(arrived);
  return sim.events;
}

function engine(s: Scenario): number {
  const m = buildPacketModel(s, { record: 'summary' });
  m.sim.run(secondsToNs(s.durationS));
  return m.sim.events;
}

function line(label: string, f: Figure & { refRate: number }): string {
  const rate = f.events / f.cpuS;
  return `${label.padEnd(34)} ${(f.events / 1e6).toFixed(2).padStart(7)} M ev ${f.cpuS.toFixed(2).padStart(6)} s cpu ${(rate / 1e6).toFixed(2).padStart(6)} M ev/cpu-s ${(rate / f.refRate).toFixed(3)}x ref ${((1e9 * f.cpuS) / f.events).toFixed(0).padStart(4)} ns/ev`;
}

/**
 * Core (when `withCore`), network and engine on one scenario; `window` segments per flow for the
 * network's transport. The core's synthetic tokens model one flow's channels well; with many flows
 * their heap and cache behaviour is not the engine's, so there the network's figure is the floor.
 */
function layers(label: string, s: Scenario, window: number, coreEvents: number, withCore: boolean): void {
  console.log(`${label}: window ${window} segments per flow for the network-only transport`);
  const flows = s.flows.length;
  // Links a flow's packets and ACKs cross (receiver access links both ways when the scenario has them), and their spans (ns).
  const hops = s.flows[0]!.receiverAccess === null ? 4 : 6;
  const hopNs = hops === 4 ? [3152, 1_003_152, 1_003_152, 100_315] : [1_012_000, 10_012_000, 1_012_000, 1_000_416, 10_000_416, 1_000_416];
  const core = withCore ? timed(() => coreOnly(coreEvents, flows, hops, window, hopNs)) : null;
  const net = timed(() => networkOnly(s, window));
  const full = timed(() => engine(s));
  if (core !== null) console.log(line('  core (heap, channels, timers)', core));
  console.log(line('  network, no TCP', net));
  console.log(line('  engine (record summary)', full));
  const ns = (f: Figure): number => (1e9 * f.cpuS) / f.events;
  const split = core !== null ? `core ${ns(core).toFixed(0)} ns, links+packets ${(ns(net) - ns(core)).toFixed(0)} ns` : `core+links+packets ${ns(net).toFixed(0)} ns`;
  console.log(`  per event: ${split}, TCP ${(ns(full) - ns(net)).toFixed(0)} ns`);
}

/**
 * The network-only transport's window per flow: one and a half bandwidth-delay products in flight
 * over all flows (the line stays full, the queue holds half a BDP: TCP's sawtooth sits around that),
 * at least 2 segments a flow (the receiver ACKs every second one).
 */
export function networkWindow(s: Scenario): number {
  return Math.max(2, Math.ceil((1.5 * bdpPackets(s)) / s.flows.length));
}

export function benchFloor(largeDurationS = 20, flows = 1000, flowsDurationS = 30): void {
  const large = largeScenario(largeDurationS);
  layers(`large case (${largeDurationS} s)`, large, networkWindow(large), 16_000_000, true);
  const many = manyFlowsScenario(flows, flowsDurationS);
  layers(`${flows} flows (${flowsDurationS} s)`, many, networkWindow(many), 0, false);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string): number | undefined => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : undefined;
  };
  benchFloor(arg('--large-duration') ?? 20, arg('--flows') ?? 1000, arg('--flows-duration') ?? 30);
}
