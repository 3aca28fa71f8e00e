import type { Scenario } from '../../scenario/types.js';
import type { FlowTrace, RunResult } from '../../result/types.js';
import { solve } from '../../solver/index.js';
import type { SolveOptions } from '../../solver/index.js';
import { modelSystems, type SystemSource } from '../compiler/systemCache.js';
import { mapScenario, NoFluidModelError, type FluidLink } from './scenarioMap.js';
import type { CompiledSystem } from '../compiler/compileSystem.js';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ModelFile } from '../language/modelFile.js';
import { buildSystem } from './problem.js';
import type { FluidSystem, LossProcess } from './problem.js';
import { groupFlows } from './groups.js';
import type { FluidFlow } from './groups.js';
import { bindFlow, checkRunParams } from './params.js';
import { flowCc } from '../../scenario/flowCc.js';
import { flowModelId } from './modelChoice.js';
import { flowsAndSummary, measure, outputIndices, queueDelaySummary, sampleGrid, summariseGroups } from './measure.js';

export interface RunFluidOptions {
  /** Directory of model files (default: the repository's models/). */
  modelsDir?: string;
  /** Already loaded models (a ModelSet from loadModels, or modelSystems(dir)). */
  models?: SystemSource;
  /** Model parameter overrides by name; unknown names are an InputError. ccParams of the Scenario apply too. */
  params?: Record<string, number>;
  /**
   * Solver settings (defaults: rtol 1e-5, atol 1e-7: mean cwnd within 0.4% of a 1e-6 solution on every
   * preset x variant, 100 s, except normal/cubic with Poisson losses, 1.4%, where a loss event moves; the
   * hybrid models need it, their event sequences amplify looser errors).
   */
  solver?: SolveOptions;
  /**
   * Loss events of the hybrid models (tahoe, cubic): 'periodic' (default, deterministic, the
   * expected-value form) or 'poisson' (seeded by scenario.seed: one sample path of a stochastic hybrid
   * system; take the median over seeds as for the packet engine). Mean-field models ignore it.
   */
  lossProcess?: LossProcess;
  /**
   * Poisson mode only: draw a lone flow's loss thresholds from the packet engine's loss stream of the
   * same seed (default true; lossThresholds.ts), or false for independent Exp(1) draws (the test's
   * counterfactual; the law is the same either way).
   */
  commonRandomNumbers?: boolean;
  /** Points of the output time grid (default min(scenario.trace.maxPoints, 2000)). */
  gridPoints?: number;
  /**
   * Integrate identical flows (same model, parameters, RTT, start and stop) once, with a multiplicity
   * (default true): exact for deterministic models, and 1000 such flows cost what one does. Flows of
   * a model with random loss thresholds (Poisson mode) are never merged.
   */
  aggregate?: boolean;
}

/**
 * Solve the fluid models of the Scenario's flows (see {@link fluidSystem}) and return a RunResult
 * shaped like the packet engine's (engine 'fluid'). Windows are reported in bytes (segments x MSS); srtt is
 * R(t) = Tp + q/C; goodput is the delivered rate rate x (1 - p) x MSS. Time averages are exact
 * integrals of the dense solution (Gauss-Legendre per step). A model that blows up (NaN, step-size
 * collapse) gives status 'failed' with the reason and NaN summary numbers, never numbers that look valid.
 *
 * @throws InputError for bad model files or bad parameters (the CLI exits with code 2).
 */
export function runFluid(scenario: Scenario, opts: RunFluidOptions = {}): RunResult {
  const wall0 = performance.now();
  const sys = fluidSystem(scenario, opts);
  const sol = solve(sys.problem, { rtol: 1e-5, atol: 1e-7, ...opts.solver });
  const modelNames = [...new Set(sys.groups.map((g) => g.model))].join(', ');
  const ix = outputIndices(sys);
  const tEnd = sol.tEnd;
  const gridN = Math.max(2, opts.gridPoints ?? Math.min(scenario.trace.maxPoints, 2000));
  const grid = new Array<number>(gridN);
  for (let k = 0; k < gridN; k++) grid[k] = (tEnd * k) / (gridN - 1);
  // Sample the grid: one step search per time (the grid is increasing, so usually O(1)) and one
  // snapshot; the series are filled in place. One set of series per group: identical flows share it.
  const { cw, ssth, rtt, infl, qv, bad } = sampleGrid(sol, sys, grid, ix.flows, ix.qIdx, scenario.mssBytes);
  const groupTraces: FlowTrace[] = sys.groups.map((_, g) => ({
    cwndBytes: { t: grid.slice(), v: cw[g]! },
    ssthreshBytes: { t: grid.slice(), v: ssth[g]! },
    srttS: { t: grid.slice(), v: rtt[g]! },
    inflightBytes: { t: grid.slice(), v: infl[g]! },
  }));
  const m = measure(sol, sys, ix, Math.min(scenario.measureFromS, tEnd));
  // The trace grid can miss a short stretch of the dense solution that is not finite; the integrals
  // cannot (they visit every step), and such a run must not look valid.
  const badIntegral = m.acc.some((a) => !Number.isFinite(a.cwnd + a.sent + a.delivered + a.lost)) ? 'the dense solution is not finite on a step between the trace points' : '';
  const why = bad || badIntegral;
  const failed = sol.status === 'failed' || why !== '';
  const failure = sol.status === 'failed' ? `fluid model '${modelNames}' failed: ${sol.message}` : why ? `fluid model '${modelNames}' failed: ${why}` : undefined;
  const nan = (v: number): number => (failed ? NaN : v);
  const span = scenario.durationS - scenario.measureFromS;
  const groupSummaries = summariseGroups(sol, sys, m, span, scenario.mssBytes, nan);
  const delaySummary = failed ? undefined : queueDelaySummary(sol, sys, m, ix, Math.min(scenario.measureFromS, tEnd));
  return {
    engine: 'fluid',
    variant: scenario.variant,
    scenario: scenario.name,
    spec: scenario,
    durationS: scenario.durationS,
    mssBytes: scenario.mssBytes,
    status: failed ? 'failed' : 'ok',
    ...(failure ? { failure } : {}),
    ...flowsAndSummary(scenario, sys, m, groupSummaries, groupTraces, nan),
    queue: { packets: { t: grid, v: qv }, ...(delaySummary ? { delay: delaySummary } : {}) },
    stats: {
      wallS: (performance.now() - wall0) / 1000,
      solver: { steps: sol.stats.steps, rejected: sol.stats.rejected, rhsEvaluations: sol.stats.rhsEvaluations, events: sol.stats.events },
    },
  };
}

/**
 * The DdeProblem of a Scenario: each flow's own model (`flows[i].variant`, default the Scenario's
 * variant, see flowCc) with its parameters (ccParams) bound, identical flows merged into one block (unless
 * `opts.aggregate` is false), all coupled through the shared bottleneck.
 */
export function fluidSystem(scenario: Scenario, opts: RunFluidOptions = {}): FluidSystem {
  const { link, flows, cc, ids, systems, byModel } = flowModels(scenario, opts);
  const runParams = opts.params ?? {};
  if (link.aqm.ecn === 1) requireMarkResponse(byModel);
  const distinct = [...new Set(systems)];
  checkRunParams(distinct.map((c) => c.flow), runParams);
  const lossEvents = lossEventsOn(link, opts.lossProcess ?? 'periodic');
  const fluidFlows: FluidFlow[] = flows.map((f, i) => ({
    model: ids[i]!,
    system: systems[i]!,
    flow: f,
    params: bindFlow(systems[i]!.flow, f, cc[i]!.ccParams, runParams),
    random: lossEvents === 'poisson' && drawsThresholds(systems[i]!),
  }));
  // Common random numbers with the packet run of the same seed: one flow, random loss on the line (lossThresholds.ts).
  const stream = (opts.commonRandomNumbers ?? true) && flows.length === 1 && link.pr > 0 && link.pr <= COUPLED_MAX_LOSS ? { p: link.pr, ackEvery: link.pra > 0 && scenario.bottleneck.loss.ackStream !== 'own' ? flows[0]!.b : 0 } : null;
  return buildSystem(link, groupFlows(fluidFlows, opts.aggregate ?? true), scenario.durationS, { process: lossEvents, seed: scenario.seed, stream });
}

/**
 * The random loss rates at which a lone flow's thresholds come from the packet run's loss stream
 * (lossThresholds.ts). Above it (the lossy line, p = 0.1, windows of 1-3 segments, where the first
 * loss carries no information) the coupling moved the Tahoe fluid -5 to -10% on the same seeds of
 * both setups (page: lossy -7.9% -> -13.9%, ns3-lossy -1.1% -> -11.8%), unexplained while the law is
 * the same: kept to where it was measured to help (ns3-lfn CUBIC under the ns3 profile +17.2% -> +7.0%).
 */
export const COUPLED_MAX_LOSS = 0.01;

/**
 * Whether the fluid run of `scenario` has random loss events when the run asks for Poisson ones (as
 * every comparison does): some flow's model draws its loss thresholds (expdraw()) and the queue is
 * not FQ-CoDel's per-flow queues. Such a run is one sample path, which the comparisons repeat on
 * every packet seed (src/runs/modelRuns.ts); any other run is deterministic. False for a scenario
 * the fluid engine has no model for.
 */
export function drawsLossEvents(scenario: Scenario, opts: Pick<RunFluidOptions, 'modelsDir' | 'models'> = {}): boolean {
  try {
    const { link, systems } = flowModels(scenario, opts);
    return lossEventsOn(link, 'poisson') === 'poisson' && systems.some(drawsThresholds);
  } catch (e) {
    if (e instanceof NoFluidModelError) return false;
    throw e;
  }
}

/**
 * The model ids the fluid engine runs for a scenario's flows, each once: the variants' own, or what a
 * rule picks (src/fluid/run/modelChoice.ts); none for a scenario it has no model for.
 */
export function fluidModelIds(scenario: Scenario, modelsDir?: string): string[] {
  return fluidSystemsOf(scenario, modelsDir)?.ids ?? [];
}

/** The compiled systems a scenario's fluid run reads: its flows' model ids on its bottleneck model; null for a scenario it has no model for. */
export function fluidSystemsOf(scenario: Scenario, modelsDir?: string): { bottleneck: string; ids: string[] } | null {
  try {
    const { link, flows } = mapScenario(scenario);
    return { bottleneck: link.model, ids: [...new Set(modelIdsOf(flows.map((_, i) => flowCc(scenario, i).variant), link, modelSystems(modelsDir).dir))] };
  } catch (e) {
    if (e instanceof NoFluidModelError) return null;
    throw e;
  }
}

/** Each flow's model id from its variant (modelChoice.ts states the rules), a rule's model only where `dir` has its file. */
function modelIdsOf(variants: readonly string[], link: FluidLink, dir: string): string[] {
  const has = (id: string): boolean => existsSync(join(dir, `${id}.model.yaml`));
  return variants.map((v) => flowModelId(v, link, variants.length, has));
}

/** The mapped scenario and each flow's model: its variant's, or the one a rule picks (modelChoice.ts). */
function flowModels(scenario: Scenario, opts: Pick<RunFluidOptions, 'modelsDir' | 'models'>) {
  const models = opts.models ?? modelSystems(opts.modelsDir);
  const { link, flows } = mapScenario(scenario);
  const cc = flows.map((_, i) => flowCc(scenario, i));
  const ids = modelIdsOf(cc.map((c) => c.variant), link, models.dir);
  // One look-up per model, not per flow (a look-up reads and hashes the model files).
  const byModel = new Map([...new Set(ids)].map((v) => [v, models.system(v, link.model)]));
  return { link, flows, cc, ids, byModel, systems: ids.map((id) => byModel.get(id)!) };
}

/** A model that draws its loss thresholds (expdraw(): Tahoe, CUBIC, Reno's lone-flow model). */
const drawsThresholds = (c: CompiledSystem): boolean => Object.values(c.source).some((code) => code.includes('past.draw()'));

/**
 * The loss process a run gets on `link`. FQ-CoDel's model is CoDel over N equal flow queues, exact
 * while the flows stay identical: each is one flow alone on its own queue at C/N, whose loss events
 * are one flow's (periodic). Random thresholds would either tell the flows apart (desynchronised flows
 * on one modelled queue, whose sojourn and CoDel state then stand for no flow's own queue: 4 CUBIC
 * flows 3.6 ms vs the packet engine's 2.5) or, drawn once for the merged block, cut all N at the same
 * random instants (16 CUBIC flows: 103 ms vs 5.5). So with per-flow queues the loss process is
 * periodic whatever was asked.
 */
function lossEventsOn(link: FluidLink, asked: LossProcess): LossProcess {
  return (link.aqm.queues ?? 1) > 1 ? 'periodic' : asked;
}

/**
 * With ECN the queue marks instead of dropping and the flows answer the marks (the bottleneck's
 * output `pmark`): a flow model whose equations and events never read `pmark` would ignore them, so
 * it is refused rather than run as if nothing were marked.
 */
function requireMarkResponse(systems: ReadonlyMap<string, { flow: ModelFile }>): void {
  for (const [variant, { flow }] of systems) {
    const texts = [...flow.equations.map((e) => e.text), ...flow.events.flatMap((e) => [e.when.text, ...e.set.map((a) => a.expr.text)])];
    if (!texts.some((x) => /\bpmark\b/.test(x))) {
      throw new NoFluidModelError('tcp.ecn', `is on and the queue marks CE, but the fluid model of ${variant} (${basename(flow.path)}) does not answer marks (it never reads pmark); use the packet engine, or ecn off`);
    }
  }
}
