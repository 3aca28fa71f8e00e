/** Congestion control for the packet engine: re-exports only. */
export type * from './types.js';
export * from './common.js';
export { CONGESTION_CONTROLS, getCongestionControl, validateCcParams, createCongestionControl, validateFactory } from './registry.js';
export { tahoe } from './tahoe.js';
export { reno, linuxRenoIncrease } from './reno.js';
export { newreno, newRenoIncrease } from './newreno.js';
export { westwood, WestwoodPlus } from './westwood.js';
export { cubic, Cubic, cubicK, wCubic, renoFriendlyAlpha } from './cubic.js';
export { HyStart } from './hystart.js';
export { dctcp, Dctcp } from './dctcp.js';
export { bbr3, Bbr3 } from './bbr3.js';
