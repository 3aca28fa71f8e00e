/**
 * Scoreboard cost per ACK (figures, not pass/fail) at 100, 1000 and 6000-segment windows: the
 * issue 8 requirement is that it does not grow with the window. Each recovery episode has one hole
 * at the head of a W-segment window; W - 1 duplicate ACKs each SACK one more segment (the
 * receiver's first block growing), run IsLost, ask NextSeg and clock out one new segment; the hole
 * is retransmitted once; then one cumulative ACK covers everything, which walks the W acknowledged
 * segments once (amortised over the episode's W ACKs). test/tcp/scoreboard.test.ts counts the
 * flag slots each ACK touches, which is the machine-independent form of the same claim.
 *
 * Run standalone: `node --import tsx bench/scoreboard.ts`.
 */
import { pathToFileURL } from 'node:url';
import { Scoreboard } from '../src/tcp/scoreboard.js';
import { withReference } from './reference.js';

export const MSS = 1460;
const DUP_THRESH = 3;

/**
 * One recovery episode on a scoreboard holding windowSegs outstanding segments: windowSegs ACKs (the
 * duplicate ACKs, then the cumulative one), leaving windowSegs outstanding again. Returns the sum of
 * pipe after each duplicate ACK, a checksum (bench/experiments/wasm-hot-loop.ts compares its
 * WebAssembly port's with it).
 */
export function scoreboardEpisode(sb: Scoreboard, windowSegs: number): number {
  let sink = 0;
  const base = sb.una;
  for (let k = 1; k < windowSegs; k++) {
    sb.sack(base + MSS, base + (k + 1) * MSS);
    sb.markLost(DUP_THRESH);
    const lost = sb.nextLost();
    if (lost >= 0) sb.retransmitted(lost);
    sink += sb.pipeBytes;
    sb.sentNew(sb.highTx, MSS);
  }
  // The repaired hole: one cumulative ACK up to the highest SACKed byte, which clocks out one more
  // new segment, so every episode starts with the same W outstanding.
  sb.ackTo(base + windowSegs * MSS);
  sb.sentNew(sb.highTx, MSS);
  return sink;
}

/** Runs episodes of one window size for at least minAcks ACKs; returns [ns per ACK wall, ns per ACK cpu]. */
function measure(windowSegs: number, minAcks: number): { wallNsPerAck: number; cpuNsPerAck: number; acks: number } {
  const sb = new Scoreboard(MSS);
  sb.sentNew(0, windowSegs * MSS);
  let acks = 0;
  let sink = 0;
  const run = (): void => {
    sink += scoreboardEpisode(sb, windowSegs);
    acks += windowSegs;
  };
  // Warm-up (JIT), then the measured episodes.
  for (let i = 0; i < Math.max(1, Math.ceil(20_000 / windowSegs)); i++) run();
  acks = 0;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  while (acks < minAcks) run();
  const wallNs = Number(process.hrtime.bigint() - t0);
  const cpu = process.cpuUsage(cpu0);
  if (sink < 0) console.log(sink);
  return { wallNsPerAck: wallNs / acks, cpuNsPerAck: ((cpu.user + cpu.system) * 1000) / acks, acks };
}

export function benchScoreboard(): void {
  console.log('scoreboard, one hole per window, DupThresh 3 (per ACK: SACK + IsLost + NextSeg + pipe + one new segment):');
  for (const w of [100, 1000, 6000]) {
    const { value: r, refRate } = withReference(() => measure(w, 2_000_000));
    // The cost in reference operations (bench/reference.ts): CPU per ACK x reference ops per CPU-second.
    const refOps = (r.cpuNsPerAck / 1e9) * refRate;
    console.log(
      `  window ${String(w).padStart(5)} segments: ${r.wallNsPerAck.toFixed(0).padStart(5)} ns/ACK wall, ${r.cpuNsPerAck.toFixed(0).padStart(5)} ns/ACK cpu = ${refOps.toFixed(2)} ref ops (${(r.acks / 1e6).toFixed(1)} M ACKs)`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) benchScoreboard();
