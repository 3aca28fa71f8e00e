/**
 * The bench's fixed in-process reference: a plain binary heap of 1024 (time, seq) keys in two typed
 * arrays, run as a hold model (pop the earliest, push one a pseudo-random step later), the shape of
 * the packet engine's inner loop without any of its code. It imports nothing from src/, so no change
 * to the engine moves it: its rate says how fast this machine runs such a loop right now.
 *
 * Every figure the bench prints is also given as a ratio to this rate, measured in the same process
 * just before and just after the figure (their mean), so that a shared machine's load, which slows
 * the figure and the reference alike, does not hide a regression or fake an improvement. The ratio
 * is events per CPU-second divided by reference operations per CPU-second.
 */

const PENDING = 1024;
/** Pop + push pairs per timing; ~20-60 ms of CPU on a 2020s core. */
const OPS = 1_000_000;

/** Runs the hold model once; returns pop + push pairs per CPU-second. */
function holdModelRate(): number {
  const time = new Float64Array(PENDING + 1);
  const seq = new Float64Array(PENDING + 1);
  let n = 0;
  let nextSeq = 0;
  let x = 12345;
  const rand = (): number => (x = (x * 48271) % 2147483647);
  const push = (t: number, s: number): void => {
    let i = ++n;
    while (i > 1) {
      const p = i >> 1;
      if (time[p]! < t || (time[p] === t && seq[p]! < s)) break;
      time[i] = time[p]!;
      seq[i] = seq[p]!;
      i = p;
    }
    time[i] = t;
    seq[i] = s;
  };
  const popTime = (): number => {
    const top = time[1]!;
    const t = time[n]!;
    const s = seq[n]!;
    n--;
    let i = 1;
    for (;;) {
      let c = 2 * i;
      if (c > n) break;
      if (c < n && (time[c + 1]! < time[c]! || (time[c + 1] === time[c] && seq[c + 1]! < seq[c]!))) c++;
      if (t < time[c]! || (t === time[c] && s < seq[c]!)) break;
      time[i] = time[c]!;
      seq[i] = seq[c]!;
      i = c;
    }
    time[i] = t;
    seq[i] = s;
    return top;
  };
  for (let i = 0; i < PENDING; i++) push(rand() % 1_000_000, nextSeq++);
  const c0 = process.cpuUsage();
  let sink = 0;
  for (let k = 0; k < OPS; k++) {
    const t = popTime();
    sink += t;
    push(t + (rand() % 1_000_000), nextSeq++);
  }
  const c = process.cpuUsage(c0);
  if (sink < 0) console.log(sink);
  return OPS / Math.max(1e-6, (c.user + c.system) / 1e6);
}

/** The reference rate now: the median of five short timings (pop + push pairs per CPU-second). */
export function referenceRate(): number {
  const r = [holdModelRate(), holdModelRate(), holdModelRate(), holdModelRate(), holdModelRate()].sort((a, b) => a - b);
  return r[2]!;
}

export interface Referenced<T> {
  value: T;
  /** Reference operations per CPU-second around the measurement (mean of before and after). */
  refRate: number;
}

/** Runs `measure` between two reference timings. */
export function withReference<T>(measure: () => T): Referenced<T> {
  const before = referenceRate();
  const value = measure();
  const after = referenceRate();
  return { value, refRate: (before + after) / 2 };
}

/** "0.213x ref": a rate (per CPU-second) over the reference rate. */
export function refRatio(ratePerCpuS: number, refRate: number): string {
  return `${(ratePerCpuS / refRate).toFixed(3)}x ref`;
}
