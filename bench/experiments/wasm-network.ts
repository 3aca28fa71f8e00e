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
 * Measured 2026-12-03 ~08:xx UTC, load (uptime) X (2 cores shared with three other sessions), 3 rounds:
 *   (filled in below)
 *
 * Standalone (AssemblyScript is not a dependency; bench/experiments/asc.ts):
 *   node --import tsx --import ./bench/dist.mjs bench/experiments/wasm-network.ts --asc /tmp/asc/node_modules/assemblyscript [--rounds 3] [--flows 1000] [--flows-duration 30] [--large-duration 20] [--case many|large]
 * (bench/dist.mjs: the JS side runs the compiled dist/, as `npm run bench` does; `npm run build` first.)
 */
import { secondsToNs } from '../../src/engine/simulator.js';
import { rngStream } from '../../src/engine/rng.js';
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
function loadWasm(w: Record<string, Fn>, s: Scenario, window: number): void {
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
  const perFlow = path(0, 0).length + path(0, 1).length - 2;
  w.init!(s.flows.length, links.length, perFlow, window, s.mssBytes, s.mssBytes + s.headerBytes, s.headerBytes + sackOptionBytes(0));
  links.forEach((l, id) => w.addLink!(id, owner[id]!, l.bandwidthBps, l.delayNs, l.limit));
  s.flows.forEach((f, i) => {
    for (const dir of [0, 1]) path(i, dir).forEach((l, hop) => w.setPath!(i, dir, hop, l));
    w.setFlow!(i, secondsToNs(f.startS), secondsToNs(f.stopS ?? s.durationS));
  });
}

function wasmNetwork(w: Record<string, Fn>, s: Scenario, window: number, arrived: Int32Array): number {
  loadWasm(w, s, window);
  const events = w.run!(secondsToNs(s.durationS));
  for (let i = 0; i < arrived.length; i++) arrived[i] = w.arrived!(i);
  return events;
}

function line(label: string, r: Run): string {
  const rate = r.events / r.cpuS;
  return `  ${label.padEnd(5)} ${(r.events / 1e6).toFixed(3).padStart(8)} M ev ${r.cpuS.toFixed(2).padStart(6)} s cpu ${(rate / 1e6).toFixed(2).padStart(6)} M ev/cpu-s ${(rate / r.refRate).toFixed(3)}x ref (ref ${(r.refRate / 1e6).toFixed(2)} M) ${((1e9 * r.cpuS) / r.events).toFixed(0).padStart(4)} ns/ev`;
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
  console.log(`${label}: the same event order (${js} events, order hash ${hash})`);
}

function round(w: Record<string, Fn>, label: string, s: Scenario, jsFirst: boolean): void {
  const window = networkWindow(s);
  const n = s.flows.length;
  const runJs = (): Run => timed((arrived) => networkOnly(s, window, arrived), n);
  const runWasm = (): Run => timed((arrived) => wasmNetwork(w, s, window, arrived), n);
  let js: Run;
  let wasm: Run;
  if (jsFirst) {
    js = runJs();
    wasm = runWasm();
  } else {
    wasm = runWasm();
    js = runJs();
  }
  checkEqual(label, js, wasm);
  const delivered = js.arrived.reduce((a, b) => a + b, 0);
  console.log(`${label}, window ${window} a flow: equal (${js.events} events, ${delivered} segments delivered); wasm/JS ${((wasm.events / wasm.cpuS) / (js.events / js.cpuS)).toFixed(2)}x per cpu-s`);
  console.log(line('JS', js));
  console.log(line('wasm', wasm));
}

const arg = (name: string): number | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
};
const w = await compileAs(ascFolder('wasm-network'), 'network');
const rounds = arg('--rounds') ?? 3;
const flows = arg('--flows') ?? 1000;
const flowsDurationS = arg('--flows-duration') ?? 30;
const largeDurationS = arg('--large-duration') ?? 20;
const only = process.argv[process.argv.indexOf('--case') + 1];
const cases: [string, Scenario][] = [];
if (only !== 'large') cases.push([`${flows} flows (${flowsDurationS} s)`, manyFlowsScenario(flows, flowsDurationS)]);
if (only !== 'many') cases.push([`large case (${largeDurationS} s)`, largeScenario(largeDurationS)]);
for (let r = 0; r < rounds; r++) {
  console.log(`round ${r + 1} (${r % 2 === 0 ? 'JS first' : 'wasm first'}):`);
  for (const [label, s] of cases) round(w, label, s, r % 2 === 0);
}
// After the timings (the traced dispatch would make the JS loop's call site polymorphic for them).
const traced = await compileAs(ascFolder('wasm-network'), 'network', (src) => src.replace('const TRACE = false;', 'const TRACE = true;'));
for (const [label, s] of cases) checkOrder(traced, label, s);
