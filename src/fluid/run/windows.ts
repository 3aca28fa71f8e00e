import type { CompiledWindow, GenFn, PastSnapshot } from '../compiler/compileSystem.js';

/**
 * The runtime of `maxover(signal, window[, step])` and `minover` (models/README.md, "Windows"): the
 * signal's samples at times 0, h, 2h, ... taken from the accepted solution only (so they never change
 * once taken: a run is deterministic and the samples are taken once each, lazily, when a query needs
 * them), and the extremum over those in [t - w, t] together with the signal's value now. Between the
 * last accepted time and t (the step in progress) only the value now counts: a peak inside a step
 * longer than h is seen once the step is accepted. Generic: nothing here knows what the signal is.
 */
export class WindowSamples {
  private v = new Float64Array(256);
  /** The extremum of each block of BLOCK samples (a query over many samples reads whole blocks). */
  private blocks = new Float64Array(16);
  /** Samples taken: at times 0, h, ..., (n - 1) h. */
  n = 0;
  private readonly max: boolean;

  constructor(
    kind: 'max' | 'min',
    readonly stepS: number,
    /** Takes the samples up to index `last` (this one's and its siblings': see SampleClock). */
    private readonly fillTo: (last: number) => void,
  ) {
    this.max = kind === 'max';
  }

  /** The extremum over [t - w, t]: samples at accepted times up to `settledUntil`, and `now`. */
  query(t: number, w: number, now: number, settledUntil: number): number {
    const h = this.stepS;
    this.fillTo(Math.min(Math.floor(settledUntil / h), Math.floor(t / h)));
    const lo = Math.max(0, Math.ceil((t - w) / h));
    const hi = Math.min(this.n - 1, Math.floor(t / h));
    return this.max ? Math.max(now, this.extremum(lo, hi)) : Math.min(now, this.extremum(lo, hi));
  }

  /** The extremum of samples lo..hi (-Infinity or Infinity when empty): partial blocks sample by sample, whole blocks by their extremum. */
  private extremum(lo: number, hi: number): number {
    const v = this.v;
    const max = this.max;
    let best = max ? -Infinity : Infinity;
    let j = lo;
    for (; j <= hi && j % BLOCK !== 0; j++) best = max ? Math.max(best, v[j]!) : Math.min(best, v[j]!);
    for (; j + BLOCK - 1 <= hi; j += BLOCK) best = max ? Math.max(best, this.blocks[j / BLOCK]!) : Math.min(best, this.blocks[j / BLOCK]!);
    for (; j <= hi; j++) best = max ? Math.max(best, v[j]!) : Math.min(best, v[j]!);
    return best;
  }

  push(x: number): void {
    if (this.n === this.v.length) this.v = grow(this.v);
    const b = Math.floor(this.n / BLOCK);
    if (b === this.blocks.length) this.blocks = grow(this.blocks);
    this.blocks[b] = this.n % BLOCK === 0 ? x : this.max ? Math.max(this.blocks[b]!, x) : Math.min(this.blocks[b]!, x);
    this.v[this.n++] = x;
  }
}

const BLOCK = 64;

function grow(a: Float64Array): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(2 * a.length);
  bigger.set(a);
  return bigger;
}

/**
 * The windows of one block that sample at the same step share their sample times: one snapshot of
 * the accepted solution per time serves all of them (BBR's bandwidth and RTT filters).
 */
class SampleClock {
  readonly members: { samples: WindowSamples; sample: (Y: ArrayLike<number>, Z: Float64Array, s: number) => number }[] = [];
  private n = 0;

  constructor(
    readonly stepS: number,
    private readonly stateAt: (s: number) => { Y: ArrayLike<number>; Z: Float64Array },
  ) {}

  fillTo(last: number): void {
    while (this.n <= last) {
      const s = this.n * this.stepS;
      const { Y, Z } = this.stateAt(s);
      for (const m of this.members) m.samples.push(m.sample(Y, Z, s));
      this.n++;
    }
  }
}

/** What a block's samplers need: the state and snapshot at an accepted time, and the block's place and parameters. */
export interface WindowBlock {
  windows: readonly CompiledWindow[];
  off: number;
  zo: number;
  FP: Float64Array;
  /** Default seconds between samples (an eighth of the block's propagation RTT). */
  defaultStepS: number;
}

/**
 * The samplers of every block, and `over(k, off, t, w, now)` for the generated code. `stateAt(s)` is
 * the accepted solution's snapshot at s; `samplerPast` serves delayed values inside a signal.
 */
export function windowRuntime(
  blocks: readonly WindowBlock[],
  BP: Float64Array,
  stateAt: (s: number) => { Y: ArrayLike<number>; Z: Float64Array },
  samplerPast: PastSnapshot,
  settledUntil: () => number,
): ((k: number, off: number, t: number, w: number, now: number) => number) | undefined {
  if (blocks.every((b) => b.windows.length === 0)) return undefined;
  const noDy: number[] = [];
  const byOff = new Map<number, WindowSamples[]>();
  for (const b of blocks) {
    const clocks = new Map<number, SampleClock>();
    byOff.set(
      b.off,
      b.windows.map((w) => {
        const step = w.stepS ?? b.defaultStepS;
        let clock = clocks.get(step);
        if (!clock) clocks.set(step, (clock = new SampleClock(step, stateAt)));
        const c = clock;
        const samples = new WindowSamples(w.kind, step, (last) => c.fillTo(last));
        const fn: GenFn = w.sample;
        c.members.push({ samples, sample: (Y, Z, s) => fn(s, Y, Z, b.off, b.zo, b.FP, BP, noDy, samplerPast) });
        return samples;
      }),
    );
  }
  return (k, off, t, w, now) => byOff.get(off)![k]!.query(t, w, now, settledUntil());
}
