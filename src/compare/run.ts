import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RunResult } from '../result/types.js';
import { noModelText, variantsWithoutEngine } from '../scenario/flowCc.js';
import type { Scenario } from '../scenario/types.js';
import type { Variant } from '../variants.js';
import { compareRuns } from './compare.js';
import { loadEngines, type EngineSet } from '../engines.js';
import type { ClosedFormPrediction, Comparison } from './types.js';

/**
 * How every comparison runs a fluid model with random discrete loss events (Tahoe's, CUBIC's): as a
 * Poisson process seeded by the packet run's seed (runs/agreement.ts: report, compare and
 * validate run them once per packet seed and compare medians). Deterministic models ignore it.
 */
export const COMPARISON_LOSS_PROCESS = 'poisson' as const;

/** Progress: `done` of `total` steps finished, `label` names the step that just finished (`starting` at 0). */
export type ProgressFn = (done: number, total: number, label: string) => void;

/** One scenario x variant with both runs, the closed forms and their comparison (what a report draws). */
export interface ComparisonCase {
  scenario: Scenario;
  packet: RunResult;
  fluid: RunResult;
  closed: ClosedFormPrediction[];
  comparison: Comparison;
  /**
   * Goodputs of the fluid runs beside the packet replications (a report's hybrid models: one per
   * packet seed, Poisson loss events; runs/agreement.ts); absent: the one fluid run.
   */
  fluidGoodputsBps?: number[];
}

export interface RunComparisonOptions {
  onProgress?: ProgressFn;
  /** Engines to use; defaults to the real packet and fluid engines. Tests pass synthetic ones. */
  engines?: EngineSet;
  /** Start every run at once (the engines hand them to worker threads); default: one after another in this thread. */
  concurrent?: boolean;
}

/** A run that threw becomes a failed RunResult, so one broken model does not lose a whole report. */
function failedRun(engine: 'packet' | 'fluid', s: Scenario, err: unknown): RunResult {
  const zero = { goodputBps: 0, throughputBps: 0, meanCwndBytes: 0, meanCwndSegments: 0, retransmits: 0, timeouts: 0, fastRecoveries: 0, lossRate: 0 };
  return {
    engine,
    variant: s.variant,
    scenario: s.name,
    spec: s,
    durationS: s.durationS,
    mssBytes: s.mssBytes,
    status: 'failed',
    failure: err instanceof Error ? err.message : String(err),
    summary: { ...zero, drops: { queue: 0, random: 0, ackRandom: 0, ackQueue: 0 } },
    flows: [],
    queue: { packets: { t: [], v: [] } },
    stats: { wallS: 0 },
  };
}

async function guarded(engine: 'packet' | 'fluid', s: Scenario, run: (s: Scenario) => RunResult | Promise<RunResult>): Promise<RunResult> {
  try {
    return await run(s);
  } catch (err) {
    // Bad input is the user's to fix, not a model failure to report.
    if (err instanceof Error && err.name === 'InputError') throw err;
    return failedRun(engine, s, err);
  }
}

/**
 * Run both engines on every scenario x variant (the scenario's own variant is replaced) and compare.
 * Runs are sequential in this thread: the machine is small and each engine run is single-threaded
 * already. With `concurrent` (engines that hand runs to worker threads, report/write.ts) every run is
 * started at once and the cases are put together in the same order, with the same results.
 */
export async function runComparison(
  scenarios: readonly Scenario[],
  variants: readonly Variant[],
  opts: RunComparisonOptions = {},
): Promise<ComparisonCase[]> {
  const engines = opts.engines ?? (await loadEngines({ lossProcess: COMPARISON_LOSS_PROCESS }));
  const total = scenarios.length * variants.length * 2;
  let done = 0;
  const finished = (label: string) => opts.onProgress?.(++done, total, label);
  opts.onProgress?.(0, total, 'starting');
  const scenarioList = scenarios.flatMap((base) => variants.map((variant): Scenario => ({ ...base, variant })));
  if (opts.concurrent) {
    const runs = scenarioList.map((scenario) => caseRuns(scenario, engines, finished));
    // Awaited in order below: a later run's failure meanwhile is not an unhandled rejection.
    for (const r of runs) for (const p of [r.packet, r.fluid]) p.catch(() => {});
    const cases: ComparisonCase[] = [];
    for (const [i, r] of runs.entries()) cases.push(assembleCase(scenarioList[i]!, await r.packet, await r.fluid, engines));
    return cases;
  }
  const cases: ComparisonCase[] = [];
  for (const scenario of scenarioList) {
    const label = `${scenario.name} ${scenario.variant}`;
    // Each run blocks this thread for up to a second: let the event loop turn first, so that worker
    // threads running a report's replications meanwhile get their next run (runs/pool.ts) without waiting for all of these.
    await nextTurn();
    const packet = await guarded('packet', scenario, engines.runPacket);
    finished(`${label} packet`);
    const missing = variantsWithoutEngine(scenario, 'fluid');
    if (missing.length === 0) await nextTurn();
    const fluid = missing.length > 0 ? noModelRun(scenario, missing) : await guarded('fluid', scenario, engines.runFluid);
    finished(`${label} fluid`);
    cases.push(assembleCase(scenario, packet, fluid, engines));
  }
  return cases;
}

/** A flow the fluid engine has no model of: the fluid side is "no model", not a failure (compareRuns). */
const noModelRun = (scenario: Scenario, missing: ReturnType<typeof variantsWithoutEngine>): RunResult => failedRun('fluid', scenario, new Error(noModelText(missing)));

/** Both runs of a case started at once (engines that run them elsewhere), each counted when it finishes. */
function caseRuns(scenario: Scenario, engines: EngineSet, finished: (label: string) => void): { packet: Promise<RunResult>; fluid: Promise<RunResult> } {
  const label = `${scenario.name} ${scenario.variant}`;
  const counted = (p: Promise<RunResult>, what: string) => p.then((r) => (finished(`${label} ${what}`), r));
  const missing = variantsWithoutEngine(scenario, 'fluid');
  return {
    packet: counted(guarded('packet', scenario, engines.runPacket), 'packet'),
    fluid: counted(missing.length > 0 ? Promise.resolve(noModelRun(scenario, missing)) : guarded('fluid', scenario, engines.runFluid), 'fluid'),
  };
}

/** A case from its two runs: the closed forms and the comparison. */
function assembleCase(scenario: Scenario, packet: RunResult, fluid: RunResult, engines: EngineSet): ComparisonCase {
  // closedForms says itself which formulas do not apply (with reasons); one that throws is a
  // failure, flagged on the case like a failed run (bad input is the user's to fix: it propagates).
  let closed: ClosedFormPrediction[] = [];
  let closedFailure: string | null = null;
  try {
    closed = [...engines.closedForms(scenario)];
  } catch (err) {
    if (err instanceof Error && err.name === 'InputError') throw err;
    closedFailure = err instanceof Error ? err.message : String(err);
  }
  const comparison = compareRuns(packet, fluid, closed);
  if (closedFailure !== null) comparison.flags.push({ code: 'run-failed', severity: 'invalid', subject: 'closed-form', message: `closed forms failed: ${closedFailure}` });
  return { scenario, packet, fluid, closed, comparison };
}
