/** ODE/DDE layer over the npm package `dopri`: Problem -> init/step or solve -> Solution. No TCP knowledge. */
export type { DdeProblem, DdeRhs, PastFn, StateEvent, TimedEvent, Bound, SolveOptions, SolverStats, EventRecord, EventAction } from './problem.js';
export { init, solve, Integrator } from './integrator.js';
export { Solution } from './solution.js';
export type { SolutionParts } from './solution.js';
