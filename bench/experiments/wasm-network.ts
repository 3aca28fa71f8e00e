/**
 * Experiment for issue 24 (evidence, not a benchmark part): does the network layer itself, in
 * WebAssembly with each flow's state in one contiguous block, run much faster at 1000 flows? The
 * README's Speed section proposes the per-packet path in wasm; this measures the piece that decides
 * the 1000-flow target (>= 4 M events per CPU-second), the network without TCP that runs at or below
 * 4 M in JavaScript from memory latency.
 *
 * bench/floor.ts's `network` layer (networkOnly: the real dumbbell, drop-tail FIFO links, the
 * simulator's heap with one FIFO channel per link direction, under a fixed-window transport) against
 * its AssemblyScript port wasm/network.as (the same algorithm and (time, seq) order, the whole run in
 * one call; its header gives the layout), on bench/floor.ts's two scenarios: 1000 flows
 * (manyFlowsScenario, window 4 segments a flow) and the large case (largeScenario, one flow, window
 * 1047). Each run is timed in CPU-seconds between two in-process reference timings
 * (bench/reference.ts withReference), JS and wasm alternating (the order swapped every round), in one
 * process. Correctness: every wasm run's event count and per-flow delivered segments must equal the
 * JS run's exactly (the script exits 1 otherwise).
 *
 * Two more wasm contenders on the 1000-flow case: `links scattered` (the control for the layout: every
 * link a block of its own, allocated in a shuffled order, the flow headers apart) and `JS call per
 * ACK` (a copy calling an imported JS function on every delivered ACK that writes a per-flow number:
 * the boundary a congestion-control algorithm left in JS would cross). After the timings both sides
 * also hash every dispatched event's (time, packet id or flow, kind) in order: the hashes must match.
 *
 * Measured 2026-12-03 08:05-08:12 UTC (2 cores shared with three sessions; uptime's 1-minute load
 * 4.1-6.8), compiled JS (bench/dist.mjs), asc 0.28 -O3. ns per event (CPU), M events per CPU-s, x ref,
 * rounds 1 / 2 / 3 of each process; wasm/JS is per CPU-s within the round. Equality held in every run
 * (events, every flow's segments, the order hash).
 * 1000 flows (30 s, window 4 a flow): 11,248,420 events, 2,498,986 segments delivered; wasm's memory 1.38 MiB.
 *   process A (load 6.8-6.6):  JS 191 / 176 / 146 ns (5.23 / 5.67 / 6.84 M, 0.656 / 0.687 / 0.832x ref)
 *     wasm 44 / 44 / 43 ns (22.74 / 22.56 / 23.38 M, 2.731 / 2.775 / 2.849x ref): wasm/JS 4.35 / 3.98 / 3.42x;
 *     JS call per ACK 49 / 52 / 47 ns (2.473 / 2.418 / 2.581x ref); links scattered 46 / 46 / 44 ns (2.657 / 2.655 / 2.760x ref)
 *   process B (load 5.7-5.6):  JS 320 / 147 / 148 ns (3.13 / 6.80 / 6.74 M, 0.412 / 0.888 / 0.859x ref)
 *     wasm 50 / 45 / 45 ns (19.83 / 22.34 / 22.20 M, 2.607 / 2.857 / 2.854x ref): wasm/JS 6.34 / 3.28 / 3.29x;
 *     JS call per ACK 44 / 46 / 46 ns (2.902 / 2.725 / 2.836x ref); links scattered 46 / 47 / 47 ns (2.784 / 2.679 / 2.786x ref)
 *   --case many (load 5.8-6.0): JS 169 / 158 / 157 ns (5.90 / 6.33 / 6.36 M, 0.734 / 0.783 / 0.799x ref)
 *     wasm 46 / 46 / 48 ns (21.64 / 21.96 / 20.80 M, 2.693 / 2.757 / 2.696x ref): wasm/JS 3.67 / 3.47 / 3.27x;
 *     JS call per ACK 49 / 47 / 46 ns (2.569 / 2.605 / 2.791x ref); links scattered 47 / 48 / 48 ns (2.664 / 2.571 / 2.603x ref)
 *   bench/floor.ts in the same minutes (its own processes, 2 runs): network 139 / 146 ns (7.19 / 6.87 M,
 *     0.796 / 0.786x ref), engine 269 / 272 ns (3.72 / 3.68 M, 0.415 / 0.421x ref): TCP 130 / 126 ns per event.
 * Large case (20 s, one flow, window 1047): 16,182,295 events, 5,394,098 segments; wasm's memory 0.24 MiB.
 *   process A: JS 84 / 87 / 83 ns (11.90 / 11.53 / 12.06 M, 1.483 / 1.393 / 1.475x ref)
 *     wasm 24 / 22 / 23 ns (41.65 / 44.46 / 43.47 M, 5.123 / 5.382 / 5.464x ref): 3.50 / 3.86 / 3.60x; JS call per ACK 24 / 24 / 25 ns
 *   process B: JS 80 / 85 / 81 ns (12.53 / 11.79 / 12.27 M, 1.590 / 1.519 / 1.577x ref)
 *     wasm 24 / 24 / 25 ns (41.25 / 41.98 / 40.70 M, 5.219 / 5.453 / 5.132x ref): 3.29 / 3.56 / 3.32x; JS call per ACK 23 / 24 / 24 ns
 *   --case large (load 5.1-5.8, warm-up on both scenarios): JS 87 / 83 / 80 ns (1.491 / 1.514 / 1.547x ref)
 *     wasm 26 / 24 / 23 ns (4.937 / 5.254 / 5.556x ref): 3.34 / 3.54 / 3.49x
 *   --case large (load 5.6-4.1): JS 79 / 78 / 117 ns (12.67 / 12.88 / 8.54 M, 1.571 / 1.671 / 1.258x ref)
 *     wasm 23 / 33 / 35 ns (43.75 / 30.43 / 28.80 M, 5.394 / 4.905 / 4.420x ref): 3.45 / 2.36 / 3.37x
 *   bench/floor.ts: network 70 / 65 ns (14.37 / 15.47 M, 1.597 / 1.786x ref), engine 121 / 127 ns: TCP 52 / 63 ns.
 *
 * What it says for the proposal (README, Speed, "Proposal: the per-packet path"):
 * - The network layer at 1000 flows runs 3.3-4.4x faster in wasm than the same JS in the same
 *   process (6.3x against one slow JS round), 43-50 ns against 146-320 ns per event; against
 *   bench/floor.ts's own JS figure (139-146 ns) about 3x. In reference units: 2.6-2.9x ref against
 *   0.41-0.89x ref. The large case gains about as much (22-35 ns against 78-117; floor's JS 65-70 ns).
 * - The gain is not the per-flow contiguity: the links scattered one by one in a shuffled order run at
 *   the same 44-48 ns. The whole wasm network at 1000 flows is 1.38 MiB, so where a link lies does not
 *   matter; what differs from JS is the representation (a link with its FIFO state and both rings in
 *   one 224-byte record, 32-byte packet rows against 64, 16-byte heap nodes against 32, no object
 *   headers, no typed-array indirection, no GC) and the compiled code. What contiguity would buy for
 *   the larger per-flow TCP state (sender, scoreboard, timers) is not measured here.
 * - Crossing into JS on every ACK costs 0-5 ns per event (an ACK every 9 events): a congestion-control
 *   algorithm's per-ACK path can stay in JS.
 * - The 4 M target (~250 ns per event at this machine's ref of 7.6-8.3 M, ~0.5x ref): with the network in
 *   wasm at 43-50 ns plus the boundary, TCP's per-event cost could be up to ~195 ns; today it is 126-130
 *   ns (floor.ts: engine minus network), so if TCP kept its JS cost the engine would run at ~170-185 ns,
 *   5.4-5.9 M events per CPU-second. With the network in JS (139-146 ns), TCP would have to fall to
 *   104-111 ns, 12-20% below today. Caveat: that sum assumes TCP's JS cost is unchanged with the packets
 *   and queues in wasm memory (its reads of delivered packets become calls' arguments; its own
 *   per-flow state and cache misses stay), which is not measured.
 *
 * Standalone (AssemblyScript is not a dependency; bench/experiments/asc.ts):
 *   node --import tsx --import ./bench/dist.mjs bench/experiments/wasm-network.ts --asc /tmp/asc/node_modules/assemblyscript [--rounds 3] [--flows 1000] [--flows-duration 30] [--large-duration 20] [--case many|large]
 * (bench/dist.mjs: the JS side runs the compiled dist/, as `npm run bench` does; `npm run build` first.)
 */
import { secondsToNs } from '../../src/engine/simulator.js';
import { PacketPool, sackOptionBytes } from '../../src/net/packets.js';
import { EV_APP_START } from '../../src/packet/events.js';
import { layOutDumbbell } from '../../src/net/topology.js';
import type { QueueDisc } from '../../src/net/qdisc/types.js';
import type { Scenario } from '../../src/scenario/types.js';
import { largeScenario, networkOnly, networkWindow } from '../floor.js';
import { manyFlowsScenario } from '../flows.js';
import { withReference } from '../reference.js';
import { ascFolder, compileAs, type Fn } from './asc.js';

interface Run {
  events: number;
  cpuS: number;
  refRate: number;
  arrived: Int32Array;
}

function timed(run: (arrived: Int32Array) => number, flows: number): Run {
  const arrived = new Int32Array(flows);
  const { value, refRate } = withReference(() => {
    const c0 = process.cpuUsage();
    const events = run(arrived);
    const c = process.cpuUsage(c0);
    return { events, cpuS: (c.user + c.system) / 1e6 };
  });
  return { ...value, refRate, arrived };
}

/**
 * Hands the scenario's dumbbell to the wasm module: src/net/topology.ts lays it out (the same link
 * ids, rates, delays and drop-tail limits as the Dumbbell networkOnly builds), each link goes to the
 * block of the one flow whose paths cross it (the bottleneck's two directions to the shared block).
 */
function loadWasm(w: Record<string, Fn>, s: Scenario, window: number, scattered: boolean): void {
  const pool = new PacketPool(4);
  const links: { bandwidthBps: number; delayNs: number; limit: number }[] = [];
  const layout = layOutDumbbell(s, (_name, bandwidthBps, delayNs, makeQdisc, uniform) => {
    const typicalTxNs = Math.max(1, Math.round((s.headerBytes + s.mssBytes) * (8e9 / bandwidthBps)));
    const q: QueueDisc = makeQdisc({ pool, bandwidthBps, typicalTxNs, uniform, dropHeld: () => undefined });
    if (q.kind !== 'droptail') throw new Error(`wasm-network: the port has drop-tail queues only, not ${q.kind}`);
    // EnqueueDisc's limit is private: read for the port, which applies the same overLimit rule.
    links.push({ bandwidthBps, delayNs, limit: (q as unknown as { limitPackets: number }).limitPackets });
    return links.length - 1;
  });
  if (s.bottleneck.loss.rate !== 0) throw new Error('wasm-network: the port has no loss draw (rate must be 0)');
  const owner = new Int32Array(links.length).fill(-1);
  const path = (flow: number, dir: number): number[] => [...layout.pathLinks.subarray((2 * flow + dir) * 4, (2 * flow + dir + 1) * 4)].filter((l) => l >= 0);
  s.flows.forEach((_, f) => {
    for (const dir of [0, 1]) for (const l of path(f, dir)) if (l !== layout.bottleneckForward && l !== layout.bottleneckReverse) owner[l] = f;
  });
  const perFlow = scattered ? 0 : path(0, 0).length + path(0, 1).length - 2;
  w.init!(s.flows.length, links.length, perFlow, window, s.mssBytes, s.mssBytes + s.headerBytes, s.headerBytes + sackOptionBytes(0));
  // The control for the layout: every link a block of its own, in a shuffled order (a seeded LCG).
  const order = links.map((_, id) => id);
  for (let i = order.length - 1, x = 12345; scattered && i > 0; i--) {
    x = (x * 48271) % 2147483647;
    const j = x % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  for (const id of order) w.addLink!(id, scattered ? -1 : owner[id]!, links[id]!.bandwidthBps, links[id]!.delayNs, links[id]!.limit);
  s.flows.forEach((f, i) => {
    for (const dir of [0, 1]) path(i, dir).forEach((l, hop) => w.setPath!(i, dir, hop, l));
    w.setFlow!(i, secondsToNs(f.startS), secondsToNs(f.stopS ?? s.durationS));
  });
}

function wasmNetwork(w: Record<string, Fn>, s: Scenario, window: number, arrived: Int32Array, scattered = false): number {
  loadWasm(w, s, window, scattered);
  const events = w.run!(secondsToNs(s.durationS));
  for (let i = 0; i < arrived.length; i++) arrived[i] = w.arrived!(i);
  return events;
}

function line(label: string, r: Run): string {
  const rate = r.events / r.cpuS;
  return `  ${label.padEnd(22)} ${(r.events / 1e6).toFixed(3).padStart(8)} M ev ${r.cpuS.toFixed(2).padStart(6)} s cpu ${(rate / 1e6).toFixed(2).padStart(6)} M ev/cpu-s ${(rate / r.refRate).toFixed(3)}x ref (ref ${(r.refRate / 1e6).toFixed(2)} M) ${((1e9 * r.cpuS) / r.events).toFixed(0).padStart(4)} ns/ev`;
}

/** Exits 1 unless the wasm run's events and every flow's delivered segments equal the JS run's. */
function checkEqual(label: string, js: Run, wasm: Run): void {
  const differ = js.arrived.findIndex((a, i) => a !== wasm.arrived[i]);
  if (js.events !== wasm.events || differ >= 0) {
    console.log(`${label}: wasm differs from JS: events ${wasm.events} vs ${js.events}; first flow differing ${differ} (${wasm.arrived[differ]} vs ${js.arrived[differ]} segments)`);
    process.exit(1);
  }
}

/**
 * The (time, seq) order itself: both sides hash every dispatched event's (time mod 2^31, packet id or
 * flow, kind) in dispatch order (packet ids match only if both pools hand out the same ids, which
 * their LIFO free lists do when allocations and releases come in the same order). Exits 1 on a difference.
 */
function checkOrder(traced: Record<string, Fn>, label: string, s: Scenario): void {
  const window = networkWindow(s);
  let hash = 0;
  const js = networkOnly(s, window, undefined, (nowNs, kind, arg) => {
    const x = (nowNs % 2147483648) ^ ((arg << 1) | (kind === EV_APP_START ? 1 : 0));
    hash = Math.imul(hash, 16777619) ^ x;
  });
  const wasm = wasmNetwork(traced, s, window, new Int32Array(s.flows.length));
  const wasmHash = traced.eventOrderHash!();
  if (js !== wasm || hash !== wasmHash) {
    console.log(`${label}: event order differs: events ${wasm} vs ${js}, hash ${wasmHash} vs ${hash}`);
    process.exit(1);
  }
  console.log(`${label}: the same event order (${js} events, order hash ${hash}); the wasm run used ${(traced.usedBytes!() / 2 ** 20).toFixed(2)} MiB of linear memory`);
}

/** One round on one scenario: JS and wasm (and, with several flows, wasm with the links scattered) in the given order. */
function round(m: Modules, label: string, s: Scenario, jsFirst: boolean): void {
  const window = networkWindow(s);
  const n = s.flows.length;
  const ways: [string, () => Run][] = [
    ['JS', () => timed((arrived) => networkOnly(s, window, arrived), n)],
    ['wasm', () => timed((arrived) => wasmNetwork(m.plain, s, window, arrived), n)],
    ['wasm, JS call per ACK', () => timed((arrived) => wasmNetwork(m.callJs, s, window, arrived), n)],
  ];
  if (n > 1) ways.push(['wasm, links scattered', () => timed((arrived) => wasmNetwork(m.plain, s, window, arrived, true), n)]);
  if (!jsFirst) ways.reverse();
  const runs = new Map(ways.map(([name, run]) => [name, run()] as const));
  const js = runs.get('JS')!;
  for (const [name, r] of runs) checkEqual(`${label}, ${name}`, js, r);
  const delivered = js.arrived.reduce((a, b) => a + b, 0);
  const ratio = (r: Run): number => r.events / r.cpuS / (js.events / js.cpuS);
  const ratios = [...runs].filter(([name]) => name !== 'JS').map(([name, r]) => `${name} ${ratio(r).toFixed(2)}x`);
  console.log(`${label}, window ${window} a flow: equal (${js.events} events, ${delivered} segments delivered); per cpu-s over JS: ${ratios.join(', ')}`);
  for (const name of ['JS', 'wasm', 'wasm, JS call per ACK', 'wasm, links scattered']) if (runs.has(name)) console.log(line(name, runs.get(name)!));
}

const arg = (name: string): number | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
};
interface Modules {
  plain: Record<string, Fn>;
  /** Calls ackHook on every delivered ACK: JS keeps a per-flow number (a sender's first field). */
  callJs: Record<string, Fn>;
}
const asc = ascFolder('wasm-network');
const lastAckByFlow = new Float64Array(1 << 16);
const modules: Modules = {
  plain: await compileAs(asc, 'network'),
  callJs: await compileAs(asc, 'network', (src) => src.replace('const CALL_JS = false;', 'const CALL_JS = true;'), {
    ackHook: (flow, ackNo) => (lastAckByFlow[flow] = ackNo!),
  }),
};
const rounds = arg('--rounds') ?? 3;
const flows = arg('--flows') ?? 1000;
const flowsDurationS = arg('--flows-duration') ?? 30;
const largeDurationS = arg('--large-duration') ?? 20;
const only = process.argv[process.argv.indexOf('--case') + 1];
const cases: [string, Scenario][] = [];
if (only !== 'large') cases.push([`${flows} flows (${flowsDurationS} s)`, manyFlowsScenario(flows, flowsDurationS)]);
if (only !== 'many') cases.push([`large case (${largeDurationS} s)`, largeScenario(largeDurationS)]);
// Warm-up, untimed: V8 compiles wasm functions first with its baseline compiler (Liftoff) and tiers
// a hot one up for its next call (no on-stack replacement in wasm), so a first run(), called once,
// would run baseline code throughout; JS gets the same warm-up.
const warmUps = cases.map(([, s]) => (s.flows.length > 1 ? manyFlowsScenario(flows, 2) : largeScenario(4)));
for (const s of warmUps) {
  const window = networkWindow(s);
  networkOnly(s, window);
  for (const wm of [modules.plain, modules.callJs]) wasmNetwork(wm, s, window, new Int32Array(s.flows.length));
  wasmNetwork(modules.plain, s, window, new Int32Array(s.flows.length), true);
}
for (let r = 0; r < rounds; r++) {
  console.log(`round ${r + 1} (${r % 2 === 0 ? 'JS first' : 'wasm first'}):`);
  for (const [label, s] of cases) round(modules, label, s, r % 2 === 0);
}
// After the timings (the traced dispatch would make the JS loop's call site polymorphic for them).
const traced = await compileAs(asc, 'network', (src) => src.replace('const TRACE = false;', 'const TRACE = true;'));
for (const [label, s] of cases) checkOrder(traced, label, s);
