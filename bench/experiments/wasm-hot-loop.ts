/**
 * Experiment for issue 24 (evidence, not a benchmark part): what would a packet-engine hot loop in
 * WebAssembly, compiled from a typed language, gain over the JavaScript engine? Two pieces, each run
 * on the same inputs in both languages in one process, alternating, CPU time, medians:
 * - the bench's fixed reference (bench/reference.ts: a heap-and-loop hold model of 1024 keys, the
 *   shape of the engine's event loop), ported to AssemblyScript in wasm/hold.as;
 * - one real hot piece, the scoreboard's per-ACK SACK path (bench/scoreboard.ts's episodes: SACK +
 *   IsLost + NextSeg + pipe + one new segment per ACK, one hole per window), ported with the same data
 *   layout in wasm/scoreboard.as, run (a) wholly inside WebAssembly, (b) one JS-to-wasm call per ACK,
 *   (c) one call per scoreboard operation (7 per ACK: a sender left in JS over a wasm scoreboard).
 *   The wasm episode's checksum (sum of pipe) must equal the JS one's.
 *
 * AssemblyScript is not a dependency of cclab: install it anywhere and pass its folder, e.g.
 *   npm install --no-save --prefix /tmp/asc assemblyscript@0.28
 *   node --import tsx --import ./bench/dist.mjs bench/experiments/wasm-hot-loop.ts --asc /tmp/asc/node_modules/assemblyscript
 * (bench/dist.mjs: the JS side runs the compiled dist/, as `npm run bench` does; `npm run build` first.)
 */
import { Scoreboard } from '../../src/tcp/scoreboard.js';
import { referenceRate } from '../reference.js';
import { MSS, scoreboardEpisode } from '../scoreboard.js';
import { ascFolder, compileAs, type Fn } from './asc.js';

const REFERENCE_OPS = 1_000_000; // bench/reference.ts's OPS
const ACKS = 2_000_000;
const ROUNDS = 5;

function cpuS(f: () => void): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function holdModel(hold: Fn): void {
  const js: number[] = [];
  const wasm: number[] = [];
  hold(REFERENCE_OPS);
  for (let r = 0; r < ROUNDS; r++) {
    js.push(referenceRate());
    const w: number[] = [];
    for (let i = 0; i < 5; i++) w.push(REFERENCE_OPS / cpuS(() => hold(REFERENCE_OPS)));
    wasm.push(median(w));
  }
  const j = median(js);
  const w = median(wasm);
  console.log(`hold model, 1024 keys: JS ${(j / 1e6).toFixed(2)} M pop+push per cpu-s, wasm ${(w / 1e6).toFixed(2)} M: wasm/JS ${(w / j).toFixed(2)}x`);
}

/** The JS episode loop and the three wasm drivings of the same loop; ns per ACK (CPU) and the checksum. */
function scoreboardWays(sb: Record<string, Fn>, windowSegs: number): Record<string, () => { sink: number; acks: number }> {
  const episodes = (one: () => number) => (): { sink: number; acks: number } => {
    let sink = 0;
    let acks = 0;
    while (acks < ACKS) {
      sink += one();
      acks += windowSegs;
    }
    return { sink, acks };
  };
  let js = new Scoreboard(MSS);
  const perOp = (): number => {
    let sink = 0;
    const base = sb.una!();
    for (let k = 1; k < windowSegs; k++) {
      sb.opSack!(base + MSS, base + (k + 1) * MSS);
      sb.opMarkLost!(3);
      const lost = sb.opNextLost!();
      if (lost >= 0) sb.opRetransmitted!(lost);
      sink += sb.opPipe!();
      sb.opSentNew!(sb.highTx!(), MSS);
    }
    sb.opAckTo!(base + windowSegs * MSS);
    sb.opSentNew!(sb.highTx!(), MSS);
    return sink;
  };
  const perAck = (): number => {
    let sink = 0;
    const base = sb.una!();
    for (let k = 1; k < windowSegs; k++) sink += sb.oneAck!(base, k);
    sb.opAckTo!(base + windowSegs * MSS);
    sb.opSentNew!(sb.highTx!(), MSS);
    return sink;
  };
  const fresh = <T>(run: () => T, reset: () => void) => (): T => {
    reset();
    return run();
  };
  const resetJs = (): void => {
    js = new Scoreboard(MSS);
    js.sentNew(0, windowSegs * MSS);
  };
  const resetWasm = (): void => void sb.reset!(windowSegs);
  return {
    js: fresh(episodes(() => scoreboardEpisode(js, windowSegs)), resetJs),
    'wasm loop': fresh(episodes(() => sb.episode!(windowSegs)), resetWasm),
    'wasm, 1 call per ACK': fresh(episodes(perAck), resetWasm),
    'wasm, 7 calls per ACK': fresh(episodes(perOp), resetWasm),
  };
}

function scoreboard(sb: Record<string, Fn>): void {
  for (const w of [100, 1000]) {
    const ways = scoreboardWays(sb, w);
    const ns: Record<string, number[]> = {};
    const sinks = new Set<number>();
    for (const run of Object.values(ways)) run(); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, run] of Object.entries(ways)) {
        let out = { sink: 0, acks: 1 };
        const s = cpuS(() => (out = run()));
        (ns[name] ??= []).push((s * 1e9) / out.acks);
        sinks.add(out.sink);
      }
    }
    const js = median(ns.js!);
    const parts = Object.entries(ns).map(([name, xs]) => `${name} ${median(xs).toFixed(1)}${name === 'js' ? '' : ` (${(js / median(xs)).toFixed(2)}x)`}`);
    console.log(`scoreboard, window ${w}: ns per ACK (cpu): ${parts.join(', ')}; checksums ${sinks.size === 1 ? 'equal' : `DIFFER (${[...sinks].join(', ')})`}`);
  }
}

const asc = ascFolder('wasm-hot-loop');
holdModel((await compileAs(asc, 'hold')).hold!);
scoreboard(await compileAs(asc, 'scoreboard'));
