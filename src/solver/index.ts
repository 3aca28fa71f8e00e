/** ODE/DDE layer over the npm package `dopri`: Problem -> solve -> Solution. No TCP knowledge. */
export type { DdeProblem, DdeRhs, PastFn, StateEvent, TimedEvent, Bound, SolveOptions, SolverStats, EventRecord, EventAction } from './problem.js';
export { solve } from './solve.js';
export { Solution } from './solution.js';
