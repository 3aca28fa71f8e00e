import type { ClosedFormPrediction } from '../theory/closedForms.js';
import type { Variant } from '../variants.js';
import type { Competition } from './competition.js';

/** A closed-form prediction: src/theory's type (a type-only import, so loading order does not matter). */
export type { ClosedFormPrediction } from '../theory/closedForms.js';

/** How far a model may be trusted in a comparison, and why not. */
export type FlagSeverity = 'info' | 'warn' | 'invalid';

export type FlagCode =
  | 'run-failed'
  | 'timeouts-dominate'
  | 'receiver-window-limited'
  | 'bandwidth-limited'
  | 'few-packets-per-rtt'
  | 'few-loss-events'
  | 'no-steady-state'
  | 'closed-form-not-applicable'
  | 'no-model';

export interface ValidityFlag {
  code: FlagCode;
  severity: FlagSeverity;
  /** What the flag casts doubt on: the fluid model, a closed form, or the comparison itself. */
  subject: 'fluid' | 'closed-form' | 'comparison';
  /** One sentence for a person, with the measured value and the threshold. */
  message: string;
  value?: number;
  threshold?: number;
}

/** What one engine said, reduced to the numbers compared. */
export interface EngineFigures {
  /** 'no-model': the engine has no model of a flow's variant (VariantFacts.engines), so it did not run. */
  status: 'ok' | 'failed' | 'no-model';
  failure?: string;
  goodputBps: number;
  meanCwndSegments: number;
  meanCwndBytes: number;
  timeouts: number;
  fastRecoveries: number;
  retransmits: number;
  lossRate: number;
}

/** Agreement of two cwnd traces on a common time grid. */
export interface TraceFit {
  fromS: number;
  toS: number;
  points: number;
  /** Root mean square of (fluid - packet), in segments. */
  rmseSegments: number;
  /** RMSE divided by the packet engine's mean cwnd on the same window (dimensionless). */
  nrmse: number | null;
  /** Pearson correlation; null when either trace is constant on the window. */
  correlation: number | null;
  meanPacketSegments: number;
  meanFluidSegments: number;
}

/** End of the first slow start, as detected on each engine's trace. */
export interface TransientInfo {
  /** How the end was detected, in words (shown in reports). */
  method: string;
  packetEndS: number | null;
  fluidEndS: number | null;
  /** Start of the steady-state window: the later of the two ends (null if either never ends). */
  steadyFromS: number | null;
}

export interface ClosedFormComparison extends ClosedFormPrediction {
  /** The prediction for all flows of the scenario (closed forms predict one flow; identical flows assumed). */
  goodputBpsAllFlows: number | null;
  /** (prediction - packet) / packet per flow; null when undefined. */
  goodputRelErr: number | null;
  cwndRelErr: number | null;
}

/** Packet vs fluid (and closed forms) for one scenario and variant. Relative errors are (model - packet) / packet. */
export interface Comparison {
  scenario: string;
  variant: Variant;
  durationS: number;
  mssBytes: number;
  /** Number of flows; goodputs are totals over them, windows means over them. */
  flows: number;
  packet: EngineFigures;
  fluid: EngineFigures;
  relErr: { goodput: number | null; meanCwnd: number | null };
  /** Whole measurement interval. Null if either run failed or a trace is empty. */
  fit: TraceFit | null;
  /** Slow-start transient excluded; null when there is no steady state to compare. */
  steadyFit: TraceFit | null;
  transient: TransientInfo;
  closedForms: ClosedFormComparison[];
  flags: ValidityFlag[];
  /** False when any flag marks the fluid model invalid here: its errors are then shown, but not as a model error. */
  fluidTrusted: boolean;
  /** How the flows share the bottleneck, per engine (src/compare/competition.ts); null with one flow. */
  competition: Competition | null;
}
