/**
 * Problem definitions for the ODE/DDE layer (SciML's Problem / solve / Solution split).
 * No TCP knowledge lives here: the fluid engine builds a {@link DdeProblem} from a model and a Scenario.
 */

/**
 * Right-hand side of a retarded DDE: write dy/dt at (t, y) into `dy`.
 * `past(s, i)` returns component i of the solution at an earlier time s (s <= t), from the dense
 * output of accepted steps or, before t0, from the problem's history.
 */
export type DdeRhs = (t: number, y: ArrayLike<number>, dy: number[], past: PastFn) => void;

/**
 * Component i of the solution at time s. `settledUntil` is the end of the accepted solution: values
 * at s <= settledUntil never change again (callers may cache them); later values come from the step
 * in progress and change between its iterations.
 */
export type PastFn = ((s: number, i: number) => number) & {
  settledUntil: number;
  /**
   * Changes whenever a value at s > settledUntil may have changed (a new step attempt, a new iterate,
   * an accepted step, a restart): within one epoch such values are fixed, so a caller may cache them
   * too, keyed by (s, epoch).
   */
  epoch: number;
  /**
   * All components at time s into `out` (faster than n calls); with `idx`, only those components (the
   * others are left untouched: a caller that reads only some of the state saves the rest).
   */
  fill?: (s: number, out: { [i: number]: number }, idx?: ArrayLike<number>) => void;
};

/** What an event does when it fires. Mutate `y` in place; return 'stop' to end the integration there. */
export type EventAction = (t: number, y: number[]) => void | 'stop';

/**
 * A state event: fires where g(t, y) crosses zero in the given direction. The crossing is located on
 * the dense output to `tolS` (default 1e-9 relative to the step) and the step is cut there, so the
 * solver restarts from a new initial point (reset of the FSAL stage) instead of stepping over a kink.
 */
export interface StateEvent {
  name: string;
  g: (t: number, y: ArrayLike<number>, past: PastFn) => number;
  /** 'rising': g goes from < 0 to >= 0; 'falling': from > 0 to <= 0; 'either'. */
  direction: 'rising' | 'falling' | 'either';
  action: EventAction;
  /**
   * Whether firing changes the solution or the rhs in a way the delayed terms will see (default true).
   * false for pure kink locators whose switch no delayed term reads: no echo is tracked for them.
   */
  propagates?: boolean;
}

/** An event at a known time (flow start, scheduled change). The solver steps exactly onto it. */
export interface TimedEvent {
  name: string;
  atS: number;
  action: EventAction;
}

/**
 * A box constraint lo <= y[index] <= hi (queue q in [0, B], window W >= 1). Inside, the component
 * follows its rhs. When it reaches a bound (located as an event), it sticks there (its derivative is
 * projected to 0: Filippov sliding) until the raw derivative points back inside, which is also located
 * as an event. This is what a queue does: it cannot go negative nor hold more than its buffer.
 */
export interface Bound {
  index: number;
  lo?: number;
  hi?: number;
}

export interface DdeProblem {
  /** Number of state components. */
  n: number;
  /** Component names, for failure messages ("q", "flow 0 W"); default `y[i]`. */
  names?: readonly string[];
  rhs: DdeRhs;
  /**
   * Optional: dy_i/dt alone, when it is much cheaper than the whole rhs (the queue's A - C versus every
   * flow's delayed terms). Used to test whether a component held on a bound is pushed back inside.
   */
  rhsComponent?: (t: number, y: ArrayLike<number>, i: number, past: PastFn) => number;
  y0: number[];
  /** Solution before t0 (component i at time s < t0); default: constant y0. */
  history?: (s: number, i: number) => number;
  tspan: [number, number];
  /**
   * A lower bound on every delay the rhs uses (e.g. the smallest propagation RTT). Steps are capped at
   * it, so every delayed value lies in already accepted steps (method of steps: the explicit RK formula
   * stays explicit). Infinity (default) for an ODE.
   */
  minLagS?: number;
  /**
   * The delays the rhs uses at (t, y) (SciML's dependent lags; here one RTT per flow). Declared lags
   * let the solver step exactly onto the echoes of every event at te, where t - lag(t, y(t)) = te.
   */
  lags?: (t: number, y: ArrayLike<number>) => ArrayLike<number>;
  /** Forced step ends (known discontinuities, e.g. t0 + lag for a constant history). */
  tstops?: number[];
  bounds?: Bound[];
  events?: StateEvent[];
  timedEvents?: TimedEvent[];
}

export interface SolveOptions {
  /** Relative tolerance (default 1e-6). */
  rtol?: number;
  /** Absolute tolerance (default 1e-6). */
  atol?: number;
  /** Largest step in the unit of t (default Infinity; further capped by minLagS). */
  maxStepS?: number;
  /** Below this step size the run fails with 'step size collapse' (default 1e-12 x span). */
  minStepS?: number;
  /** Budget of attempted steps (default 1e6). */
  maxSteps?: number;
  /** First trial step (default: heuristic from the rhs scale). */
  firstStepS?: number;
  /**
   * true: cap steps at minLagS, so delayed values always come from accepted steps (method of steps).
   * false (default): allow longer steps; delayed values inside the step in progress are taken from its
   * own dense output, iterated to convergence (first pass: extrapolation of the previous step), as
   * Julia's MethodOfSteps(constrained = false) and MATLAB's ddesd do. In steady state this takes
   * steps of many RTTs instead of one.
   */
  constrained?: boolean;
  /** Fixed-point iterations allowed per unconstrained step before it is retried smaller (default 6). */
  maxIterations?: number;
}

export interface SolverStats {
  steps: number;
  rejected: number;
  rhsEvaluations: number;
  events: number;
}

/** One recorded event firing. */
export interface EventRecord {
  name: string;
  t: number;
}
