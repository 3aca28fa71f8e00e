import { mean, rootMeanSquare, sampleCorrelation } from 'simple-statistics';
import type { RunResult } from '../result/types.js';
import { noModelText, variantsWithoutEngine } from '../scenario/flowCc.js';
import { competition } from './competition.js';
import { type Interpolation, resample, uniformGrid } from './resample.js';
import { slowStartEnd, TRANSIENT_METHOD } from './transient.js';
import type { ClosedFormComparison, ClosedFormPrediction, Comparison, EngineFigures, TraceFit, TransientInfo } from './types.js';
import { validityFlags } from './validity.js';

/** Points of the common grid the cwnd traces are resampled on (engines record at most a few thousand). */
export const GRID_POINTS = 2000;

/** (model - reference) / reference; null when the reference is zero or either is not finite. */
export function relativeError(model: number, reference: number): number | null {
  if (!Number.isFinite(model) || !Number.isFinite(reference) || reference === 0) return null;
  return (model - reference) / reference;
}

function figures(r: RunResult, noModel = false): EngineFigures {
  const s = r.summary;
  const f: EngineFigures = {
    status: noModel ? 'no-model' : r.status,
    goodputBps: s.goodputBps,
    meanCwndSegments: s.meanCwndSegments,
    meanCwndBytes: s.meanCwndBytes,
    timeouts: s.timeouts,
    fastRecoveries: s.fastRecoveries,
    retransmits: s.retransmits,
    lossRate: s.lossRate,
  };
  if (r.failure !== undefined) f.failure = r.failure;
  return f;
}

/** Mean over flows of cwnd (segments) at each grid time. The packet engine's cwnd is a step function. */
export function cwndOnGrid(r: RunResult, grid: readonly number[]): number[] {
  const how: Interpolation = r.engine === 'packet' ? 'step' : 'linear';
  const acc = new Array<number>(grid.length).fill(0);
  for (const { trace } of r.flows) {
    const v = resample(trace.cwndBytes, grid, how);
    for (let i = 0; i < grid.length; i++) acc[i]! += v[i]!;
  }
  const k = r.flows.length * r.mssBytes;
  return acc.map((x) => x / k);
}

function hasTrace(r: RunResult): boolean {
  return r.status === 'ok' && r.flows.length > 0 && r.flows.every((f) => f.trace.cwndBytes.t.length > 0);
}

/** RMSE and correlation of the two cwnd traces on [fromS, toS]; null when the window is empty. */
export function fitTraces(packet: RunResult, fluid: RunResult, fromS: number, toS: number, n = GRID_POINTS): TraceFit | null {
  if (!(toS > fromS) || !hasTrace(packet) || !hasTrace(fluid)) return null;
  const grid = uniformGrid(fromS, toS, n);
  const p = cwndOnGrid(packet, grid);
  const f = cwndOnGrid(fluid, grid);
  const diff = f.map((x, i) => x - p[i]!);
  const rmse = rootMeanSquare(diff);
  const mp = mean(p);
  let correlation: number | null = sampleCorrelation(p, f);
  if (!Number.isFinite(correlation)) correlation = null; // a constant trace has no correlation
  return {
    fromS,
    toS,
    points: grid.length,
    rmseSegments: rmse,
    nrmse: mp > 0 ? rmse / mp : null,
    correlation,
    meanPacketSegments: mp,
    meanFluidSegments: mean(f),
  };
}

/** Latest slow-start end over a run's flows (each flow has its own first slow start). */
function runSlowStartEnd(r: RunResult): number | null {
  if (!hasTrace(r)) return null;
  let end = -Infinity;
  for (const { trace } of r.flows) {
    const e = slowStartEnd(trace.cwndBytes, trace.ssthreshBytes);
    if (e === null) return null;
    end = Math.max(end, e);
  }
  return end;
}

/**
 * Closed forms that apply to the variant, each with its error against the packet run. A closed form
 * predicts one flow: it is compared with the packet run's goodput per flow (total / flows).
 */
function closedBeside(packet: RunResult, closed: readonly ClosedFormPrediction[]): ClosedFormComparison[] {
  const n = Math.max(1, packet.spec.flows.length);
  return closed
    .filter((c) => c.appliesTo.includes(packet.variant))
    .map((c) => ({
      ...c,
      goodputBpsAllFlows: c.goodputBps === null ? null : c.goodputBps * n,
      goodputRelErr: c.goodputBps === null || packet.status !== 'ok' ? null : relativeError(c.goodputBps, packet.summary.goodputBps / n),
      cwndRelErr: c.cwndSegments === null || packet.status !== 'ok' ? null : relativeError(c.cwndSegments, packet.summary.meanCwndSegments),
    }));
}

/**
 * Compare a packet-level run and a fluid-model run of the same scenario and variant.
 *
 * - Means (cwnd, goodput) are the engines' own summaries over the measurement interval.
 * - RMSE and correlation resample both cwnd traces (mean over flows, in segments) on one uniform grid
 *   of GRID_POINTS over [measureFromS, end]; the packet trace is read as a step function, the fluid one linearly.
 * - The steady-state figures repeat this after the first slow start (see TRANSIENT_METHOD).
 * - Validity flags say where a model is outside its assumptions; `fluidTrusted` is false if one is invalid.
 */
export function compareRuns(packet: RunResult, fluid: RunResult, closed: readonly ClosedFormPrediction[] = []): Comparison {
  if (packet.scenario !== fluid.scenario || packet.variant !== fluid.variant) {
    throw new Error(`compareRuns: runs differ (${packet.scenario}/${packet.variant} vs ${fluid.scenario}/${fluid.variant})`);
  }
  const applicable = closed.filter((c) => c.appliesTo.includes(packet.variant));
  // No model of a flow's variant (runComparison did not run the fluid engine): one informational
  // flag instead of a failure, and none of the fluid model's own assumption flags.
  const missing = fluid.status === 'failed' ? variantsWithoutEngine(packet.spec, 'fluid') : [];
  const noModel = missing.length > 0;
  let flags = validityFlags(packet, fluid, applicable);
  if (noModel) {
    flags = flags.filter((f) => f.subject !== 'fluid');
    flags.push({ code: 'no-model', severity: 'info', subject: 'fluid', message: noModelText(missing) });
  }
  const bothOk = packet.status === 'ok' && fluid.status === 'ok';
  const fromS = Math.max(packet.spec.measureFromS, 0);
  const toS = Math.min(packet.durationS, fluid.durationS);

  const packetEndS = runSlowStartEnd(packet);
  const fluidEndS = runSlowStartEnd(fluid);
  const steadyFromS = packetEndS === null || fluidEndS === null ? null : Math.max(packetEndS, fluidEndS, fromS);
  const transient: TransientInfo = { method: TRANSIENT_METHOD, packetEndS, fluidEndS, steadyFromS };

  const fit = bothOk ? fitTraces(packet, fluid, fromS, toS) : null;
  const steadyFit = bothOk && steadyFromS !== null ? fitTraces(packet, fluid, steadyFromS, toS) : null;
  if (bothOk && (steadyFit === null || steadyFit.toS - steadyFit.fromS < 0.1 * (toS - fromS))) {
    flags.push({
      code: 'no-steady-state',
      severity: 'info',
      subject: 'comparison',
      message:
        steadyFromS === null
          ? 'no steady state: a run never left its first slow start, so no transient-free figures'
          : `short steady state: slow start ended at ${steadyFromS.toFixed(1)} s of ${toS.toFixed(1)} s`,
    });
  }

  return {
    scenario: packet.scenario,
    variant: packet.variant,
    durationS: packet.durationS,
    mssBytes: packet.mssBytes,
    flows: packet.spec.flows.length,
    packet: figures(packet),
    fluid: figures(fluid, noModel),
    relErr: {
      goodput: bothOk ? relativeError(fluid.summary.goodputBps, packet.summary.goodputBps) : null,
      meanCwnd: bothOk ? relativeError(fluid.summary.meanCwndSegments, packet.summary.meanCwndSegments) : null,
    },
    fit,
    steadyFit,
    transient,
    closedForms: closedBeside(packet, applicable),
    flags,
    fluidTrusted: !noModel && !flags.some((f) => f.severity === 'invalid' && (f.subject === 'fluid' || f.subject === 'comparison')),
    competition: competition(packet.spec, packet, fluid),
  };
}
