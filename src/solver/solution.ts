import type { EventRecord, SolverStats } from './problem.js';
import type { DenseOutput } from './dense.js';

/** What a {@link Solution} is made of (the integrator's state when it finished). */
export interface SolutionParts {
  /** Dense output of the accepted steps. */
  dense: DenseOutput;
  /** The state at tEnd. */
  yEnd: readonly number[];
  t0: number;
  tEnd: number;
  status: 'ok' | 'failed';
  /** Why the run failed ('' when it did not). */
  message: string;
  stats: SolverStats;
  events: readonly EventRecord[];
  /** Box constraints per component (lo, hi); the dense polynomial may overshoot a bound between steps. */
  lo?: Float64Array;
  hi?: Float64Array;
}

/**
 * The result of {@link solve}: a dense, callable trajectory over [t0, tEnd] plus status and statistics
 * (SciML's Solution). With status 'failed', tEnd is where the integration stopped and `message` says why;
 * values up to tEnd are what the solver computed, values after it do not exist.
 */
export class Solution {
  readonly t0: number;
  readonly tEnd: number;
  readonly status: 'ok' | 'failed';
  readonly message: string;
  readonly stats: SolverStats;
  readonly events: readonly EventRecord[];
  private readonly hist: DenseOutput;
  private readonly yEnd: readonly number[];
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;

  constructor(parts: SolutionParts) {
    this.hist = parts.dense;
    this.yEnd = parts.yEnd.slice();
    this.t0 = parts.t0;
    this.tEnd = parts.tEnd;
    this.status = parts.status;
    this.message = parts.message;
    this.stats = parts.stats;
    this.events = parts.events;
    this.lo = parts.lo ?? new Float64Array(0);
    this.hi = parts.hi ?? new Float64Array(0);
  }

  /** Component i at time s, t0 <= s <= tEnd (dense output, 4th-order accurate between steps). */
  at(s: number, i: number): number {
    if (!(s >= this.t0 - 1e-12) || s > this.tEnd + 1e-9 * Math.max(1, Math.abs(this.tEnd))) {
      throw new RangeError(`t = ${s} outside the solved interval [${this.t0}, ${this.tEnd}]`);
    }
    if (this.hist.length === 0 || s >= this.hist.tEnd) return this.yEnd[i]!;
    const v = this.hist.at(s, i);
    // The interpolant between two points on a bound can overshoot it by the local error: the state
    // itself never leaves the box (the solver holds it there), so report the box's value.
    if (i < this.lo.length) return Math.min(this.hi[i]!, Math.max(this.lo[i]!, v));
    return v;
  }

  /**
   * Every component at time s into `out` (what {@link at} gives per component, with one step search
   * for all of them; consecutive calls at increasing s find their step in O(1)). Allocates nothing.
   */
  stateInto(s: number, out: { [i: number]: number }): void {
    if (!(s >= this.t0 - 1e-12) || s > this.tEnd + 1e-9 * Math.max(1, Math.abs(this.tEnd))) {
      throw new RangeError(`t = ${s} outside the solved interval [${this.t0}, ${this.tEnd}]`);
    }
    const n = this.yEnd.length;
    if (this.hist.length === 0 || s >= this.hist.tEnd) {
      for (let i = 0; i < n; i++) out[i] = this.yEnd[i]!;
      return;
    }
    this.hist.atAll(s, out);
    const m = Math.min(n, this.lo.length);
    for (let i = 0; i < m; i++) out[i] = Math.min(this.hi[i]!, Math.max(this.lo[i]!, out[i]!));
  }

  /** The full state at time s. */
  state(s: number): number[] {
    return this.yEnd.map((_, i) => this.at(s, i));
  }

  /** Component i on a time grid (grid points beyond tEnd are NaN). */
  sample(grid: readonly number[], i: number): number[] {
    return grid.map((s) => (s <= this.tEnd ? this.at(s, i) : NaN));
  }

  /** The accepted mesh (step start times, then tEnd). */
  mesh(): number[] {
    return [...this.hist.stepStarts(), this.tEnd];
  }

  /**
   * Integrals over [a, b] (within the solved interval) of an m-component function of the solution,
   * f(s, y(s), out) writing its m values into `out`: 4-point Gauss-Legendre on each step of the mesh,
   * exact for the degree-4 dense polynomial itself and for any integrand smooth within a step, so time
   * averages (mean cwnd, delivered bytes, drops) need no resampling. Returns the m integrals.
   * `y` is one buffer reused for every node (allocates nothing per node).
   */
  integrate(a: number, b: number, m: number, f: (s: number, y: Float64Array, out: Float64Array) => void): Float64Array {
    const acc = new Float64Array(m);
    const out = new Float64Array(m);
    const y = new Float64Array(this.yEnd.length);
    const mesh = this.mesh();
    for (let k = 0; k + 1 < mesh.length; k++) {
      const lo = Math.max(a, mesh[k]!);
      const hi = Math.min(b, mesh[k + 1]!);
      if (hi <= lo) continue;
      const mid = 0.5 * (lo + hi);
      const half = 0.5 * (hi - lo);
      for (let j = 0; j < 4; j++) {
        const s = mid + half * GL_X[j]!;
        this.stateInto(s, y);
        f(s, y, out);
        const w = GL_W[j]! * half;
        for (let c = 0; c < m; c++) acc[c] += w * out[c]!;
      }
    }
    return acc;
  }

  /** Time integral of g(component i) over [a, b] (see {@link integrate}). */
  integral(i: number, a: number, b: number, g: (v: number) => number = (v) => v): number {
    return this.integrate(a, b, 1, (_s, y, out) => void (out[0] = g(y[i]!)))[0]!;
  }
}

/** Gauss-Legendre nodes and weights on [-1, 1], 4 points (exact for polynomials of degree <= 7). */
const GL_X = [-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526];
const GL_W = [0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538];
