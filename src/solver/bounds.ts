import type { Bound, StateEvent } from './problem.js';

/** A state event plus when it is active; bound events are active only in the matching hold state. */
export interface ActiveEvent extends StateEvent {
  active(): boolean;
  /** Bound-exit events fire only when g becomes strictly positive (the derivative points inwards). */
  strict?: boolean;
}

/**
 * Box constraints lo <= y[i] <= hi with sliding (Filippov): a component that reaches a bound is held
 * there, its derivative projected to 0 while the raw derivative points outwards; entering and leaving
 * are located as events, so the integrator restarts at the corner instead of stepping over it.
 */
export class Box {
  /** Per component: 0 free, -1 held at lo, +1 held at hi. */
  readonly held: Int8Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;

  constructor(
    readonly n: number,
    private readonly bounds: readonly Bound[],
  ) {
    this.held = new Int8Array(n);
    this.lo = new Float64Array(n).fill(-Infinity);
    this.hi = new Float64Array(n).fill(Infinity);
    for (const b of bounds) {
      if (b.lo !== undefined) this.lo[b.index] = b.lo;
      if (b.hi !== undefined) this.hi[b.index] = b.hi;
    }
  }

  /** Zero the derivative of every held component that points out of the box. */
  project(dy: number[]): void {
    const held = this.held;
    for (let i = 0; i < this.n; i++) {
      if ((held[i] === -1 && dy[i]! < 0) || (held[i] === 1 && dy[i]! > 0)) dy[i] = 0;
    }
  }

  /** The entry and exit events of every bound; `rawDerivative` evaluates the unprojected rhs. */
  events(rawDerivative: (t: number, y: ArrayLike<number>, i: number) => number): ActiveEvent[] {
    const out: ActiveEvent[] = [];
    const held = this.held;
    for (const b of this.bounds) {
      const i = b.index;
      for (const side of [-1, 1] as const) {
        const limit = side === -1 ? b.lo : b.hi;
        if (limit === undefined) continue;
        const which = side === -1 ? 'lower' : 'upper';
        out.push({
          name: `y[${i}] reaches ${which} bound ${limit}`,
          g: (_t, yy) => yy[i]! - limit,
          direction: side === -1 ? 'falling' : 'rising',
          active: () => held[i] === 0,
          action: (_t, yy) => {
            yy[i] = limit;
            held[i] = side;
          },
        });
        out.push({
          name: `y[${i}] leaves ${which} bound ${limit}`,
          g: (t, yy) => -side * rawDerivative(t, yy, i),
          direction: 'rising',
          strict: true,
          active: () => held[i] === side,
          action: () => {
            held[i] = 0;
          },
        });
      }
    }
    return out;
  }

  /**
   * Settle the hold flags at a new point (the start, or after a jump): a component on or outside a
   * bound is put on it and held; a held one that a jump moved off its bound, or that the dynamics push
   * back inside, is freed. Without this a crossing across a jump would be missed.
   */
  settle(t: number, y: number[], rawDerivative: (t: number, y: ArrayLike<number>, i: number) => number): void {
    const held = this.held;
    for (const b of this.bounds) {
      const i = b.index;
      if (b.lo !== undefined && y[i]! <= b.lo) {
        y[i] = b.lo;
        held[i] = -1;
      } else if (b.hi !== undefined && y[i]! >= b.hi) {
        y[i] = b.hi;
        held[i] = 1;
      } else if (held[i] !== 0) {
        held[i] = 0;
      }
      if (held[i] !== 0 && -held[i]! * rawDerivative(t, y, i) > 0) held[i] = 0;
    }
  }
}

/**
 * Re-arming of events: after an event fires, its g sits at ~0 on the far side of the crossing, and
 * numerical noise (or a tangency) could make it cross again and again within rounding of the same
 * instant. A fired event stays disarmed until g is seen clearly back on the near side (beyond 1e-9 of
 * the scale g had before the crossing), as SUNDIALS' root finder does.
 */
export class Rearm {
  private readonly scale: Float64Array;

  constructor(private readonly events: readonly StateEvent[]) {
    this.scale = new Float64Array(events.length).fill(NaN);
  }

  disarm(k: number, gBefore: number): void {
    this.scale[k] = 1e-9 * (1 + Math.abs(gBefore));
  }

  armed(k: number): boolean {
    return Number.isNaN(this.scale[k]!);
  }

  /** Re-arm event k if g is back on the near side. */
  observe(k: number, g: number): void {
    const sc = this.scale[k]!;
    if (Number.isNaN(sc) || Number.isNaN(g)) return;
    const dir = this.events[k]!.direction;
    if (dir === 'rising' ? g < -sc : dir === 'falling' ? g > sc : Math.abs(g) > sc) this.scale[k] = NaN;
  }
}
