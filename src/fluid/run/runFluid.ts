import type { Scenario } from '../../scenario/types.js';
import type { DropCounters, FlowSummary, FlowTrace, RunResult, Series } from '../../result/types.js';
import { solve } from '../../solver/index.js';
import type { Solution, SolveOptions } from '../../solver/index.js';
import { modelSystems, type SystemSource } from '../compiler/systemCache.js';
import { mapScenario, NoFluidModelError } from './scenarioMap.js';
import { basename } from 'node:path';
import type { ModelFile } from '../language/modelFile.js';
import { buildSystem } from './problem.js';
import type { FluidSystem, LossProcess } from './problem.js';
import { groupFlows } from './groups.js';
import type { FluidFlow } from './groups.js';
import { bindFlow, checkRunParams } from './params.js';
import { flowCc } from '../../scenario/flowCc.js';

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
    queue: { packets: { t: grid, v: qv } },
    stats: {
      wallS: (performance.now() - wall0) / 1000,
      solver: { steps: sol.stats.steps, rejected: sol.stats.rejected, rhsEvaluations: sol.stats.rhsEvaluations, events: sol.stats.events },
    },
  };
}

/** Where each group's outputs and the bottleneck's sit in the state (y) and the snapshot (z); -1 where a model has none. */
interface OutputIndices {
  flows: { cwnd: number; ssthresh: number; inflight: number; rate: number; R: number }[];
  zp: number;
  zpq: number;
  /** The share of arrivals delivered now (departures over arrivals, less random loss); without it, 1 - p. */
  zDelivered: number;
  qIdx: number;
}

function outputIndices(sys: FluidSystem): OutputIndices {
  const { layout } = sys;
  return {
    flows: sys.groups.map((_, g) => ({
      cwnd: layout.zFlow(g, 'cwnd'),
      ssthresh: layout.zFlow(g, 'ssthresh'),
      inflight: layout.zFlow(g, 'inflight') >= 0 ? layout.zFlow(g, 'inflight') : layout.zFlow(g, 'cwnd'),
      rate: layout.zFlow(g, 'rate'),
      R: layout.zFlow(g, 'R'),
    })),
    zp: layout.zBottleneck('p'),
    zpq: layout.zBottleneck('pq'),
    zDelivered: layout.zBottleneck('delivered'),
    qIdx: layout.yBottleneck('q'),
  };
}

/** The measurement interval's integrals, and the whole run's losses, sends and drops. */
interface Measured {
  acc: { cwnd: number; sent: number; delivered: number; lost: number }[];
  lostWhole: number[];
  sentWhole: number[];
  queueDrops: number;
  randomDrops: number;
}

/**
 * Time integrals over the measurement interval [from, tEnd], per group: cwnd, sent rate, delivered
 * rate, lost rate. Counts (losses, retransmissions, timeouts, reductions) and the loss rate cover the
 * whole run, as the packet engine's do; rates and means cover the measurement interval. So the part
 * before it is added.
 */
function measure(sol: Solution, sys: FluidSystem, ix: OutputIndices, from: number): Measured {
  const zCwnd = ix.flows.map((f) => f.cwnd);
  const zRate = ix.flows.map((f) => f.rate);
  const { acc, queueDrops, randomDrops } = integrate(sol, sys, zCwnd, zRate, ix.zp, ix.zpq, ix.zDelivered, from, sol.tEnd);
  const early = from > 0 ? integrate(sol, sys, zCwnd, zRate, ix.zp, ix.zpq, ix.zDelivered, 0, from) : null;
  return {
    acc,
    lostWhole: acc.map((a, g) => a.lost + (early ? early.acc[g]!.lost : 0)),
    sentWhole: acc.map((a, g) => a.sent + (early ? early.acc[g]!.sent : 0)),
    queueDrops: queueDrops + (early?.queueDrops ?? 0),
    randomDrops: randomDrops + (early?.randomDrops ?? 0),
  };
}

/** One flow's summary per group (identical flows share it). */
function summariseGroups(sol: Solution, sys: FluidSystem, m: Measured, span: number, mss: number, nan: (v: number) => number): FlowSummary[] {
  const { groups, layout } = sys;
  const tEnd = sol.tEnd;
  // Window reductions by events, one per flow of the group that fired it: hybrid models' loss events,
  // mean-field models' queue-overflow cuts and slow-start exits.
  const reductionsOf = new Float64Array(groups.length);
  for (const e of sol.events) {
    const g = sys.reductionGroup.get(e.name);
    if (g !== undefined) reductionsOf[g]++;
  }
  return m.acc.map((a, g) => {
    const meanCwndSeg = a.cwnd / span;
    const hybrid = groups[g]!.system.flow.form === 'hybrid';
    // A model with a state `nto` counts its expected retransmission timeouts (models/README.md).
    const counted = (name: string): number | null => {
      const y = layout.yFlow(g, name);
      return y >= 0 ? sol.at(tEnd, y) - sol.at(0, y) : null;
    };
    const timeouts = counted('nto') ?? 0;
    // Fast recoveries: a hybrid model's reduction events that did not end in a timeout; a mean-field
    // model's expected fast recoveries (`nred`) plus its overflow cuts; lacking nred, lost packets.
    const nred = counted('nred');
    const fastRecoveries = hybrid ? reductionsOf[g]! - timeouts : nred !== null ? nred + reductionsOf[g]! : m.lostWhole[g]! - timeouts;
    return {
      flowId: groups[g]!.members[0]!,
      goodputBps: nan((a.delivered * mss * 8) / span),
      throughputBps: nan((a.sent * mss * 8) / span),
      meanCwndBytes: nan(meanCwndSeg * mss),
      meanCwndSegments: nan(meanCwndSeg),
      bytesDelivered: nan(a.delivered * mss),
      bytesSent: nan(a.sent * mss),
      // Expected counts over the whole run; every lost packet is retransmitted once.
      retransmits: nan(Math.round(m.lostWhole[g]!)),
      timeouts: nan(Math.round(timeouts)),
      fastRecoveries: nan(Math.max(0, Math.round(fastRecoveries))),
      lossRate: nan(m.sentWhole[g]! > 0 ? m.lostWhole[g]! / m.sentWhole[g]! : 0),
    };
  });
}

/** Every flow's summary and trace (those of its group) and the run's summary over all flows. */
function flowsAndSummary(scenario: Scenario, sys: FluidSystem, m: Measured, groupSummaries: FlowSummary[], groupTraces: FlowTrace[], nan: (v: number) => number): Pick<RunResult, 'summary' | 'flows'> {
  const { groups } = sys;
  const flows = scenario.flows;
  const groupOf = new Int32Array(flows.length);
  groups.forEach((grp, g) => grp.members.forEach((i) => (groupOf[i] = g)));
  const flowSummaries: FlowSummary[] = flows.map((_, i) => ({ ...groupSummaries[groupOf[i]!]!, flowId: i }));
  const sum = (f: (s: FlowSummary) => number): number => flowSummaries.reduce((x, s) => x + f(s), 0);
  const drops: DropCounters = {
    queue: nan(Math.round(m.queueDrops)),
    random: nan(Math.round(m.randomDrops)),
    ackRandom: 0,
    ackQueue: 0,
  };
  const totalLost = groups.reduce((x, grp, g) => x + grp.members.length * m.lostWhole[g]!, 0);
  const totalSent = groups.reduce((x, grp, g) => x + grp.members.length * m.sentWhole[g]!, 0);
  return {
    summary: {
      goodputBps: sum((s) => s.goodputBps),
      throughputBps: sum((s) => s.throughputBps),
      meanCwndBytes: sum((s) => s.meanCwndBytes) / flows.length,
      meanCwndSegments: sum((s) => s.meanCwndSegments) / flows.length,
      retransmits: sum((s) => s.retransmits),
      timeouts: sum((s) => s.timeouts),
      fastRecoveries: sum((s) => s.fastRecoveries),
      drops,
      lossRate: nan(totalSent > 0 ? totalLost / totalSent : 0),
    },
    // Flows of one group share its trace series (they are the same numbers).
    flows: flowSummaries.map((summary, i) => ({ summary, trace: groupTraces[groupOf[i]!]! })),
  };
}

/**
 * The DdeProblem of a Scenario: each flow's own model (`flows[i].variant`, default the Scenario's
 * variant, see flowCc) with its parameters (ccParams) bound, identical flows merged into one block (unless
 * `opts.aggregate` is false), all coupled through the shared bottleneck.
 */
export function fluidSystem(scenario: Scenario, opts: RunFluidOptions = {}): FluidSystem {
  const models = opts.models ?? modelSystems(opts.modelsDir);
  const { link, flows } = mapScenario(scenario);
  const lossProcess = opts.lossProcess ?? 'periodic';
  const runParams = opts.params ?? {};
  const cc = flows.map((_, i) => flowCc(scenario, i));
  // One look-up per model, not per flow (a look-up reads and hashes the model files).
  const byModel = new Map([...new Set(cc.map((c) => c.variant))].map((v) => [v, models.system(v, link.model)]));
  if (link.aqm.ecn === 1) requireMarkResponse(byModel);
  const systems = cc.map((c) => byModel.get(c.variant)!);
  const distinct = [...new Set(systems)];
  checkRunParams(distinct.map((c) => c.flow), runParams);
  const draws = new Set(distinct.filter((c) => Object.values(c.source).some((code) => code.includes('past.draw()'))));
  // FQ-CoDel's model is CoDel over N equal flow queues, exact while the flows stay identical: each is
  // one flow alone on its own queue at C/N, whose loss events are one flow's (periodic). Random
  // thresholds would either tell the flows apart (desynchronised flows on one modelled queue, whose
  // sojourn and CoDel state then stand for no flow's own queue: 4 CUBIC flows 3.6 ms vs the packet
  // engine's 2.5) or, drawn once for the merged block, cut all N at the same random instants (16 CUBIC
  // flows: 103 ms vs 5.5). So with per-flow queues the loss process is periodic whatever was asked.
  const perFlowQueues = (link.aqm.queues ?? 1) > 1;
  const lossEvents = perFlowQueues ? 'periodic' : lossProcess;
  const fluidFlows: FluidFlow[] = flows.map((f, i) => ({
    model: cc[i]!.variant,
    system: systems[i]!,
    flow: f,
    params: bindFlow(systems[i]!.flow, f, cc[i]!.ccParams, runParams),
    random: lossEvents === 'poisson' && draws.has(systems[i]!),
  }));
  return buildSystem(link, groupFlows(fluidFlows, opts.aggregate ?? true), scenario.durationS, { process: lossEvents, seed: scenario.seed });
}

/**
 * Time integrals over [from, tEnd] per group (one flow's cwnd, sent, delivered and lost rate) and the
 * expected queue and random drops of all flows, on the snapshot (outputs) of the dense solution
 * ({@link Solution.integrate}: Gauss-Legendre per step, exact for the step's polynomial).
 */
function integrate(
  sol: Solution,
  sys: FluidSystem,
  zCwnd: readonly number[],
  zRate: readonly number[],
  zp: number,
  zpq: number,
  zDelivered: number,
  from: number,
  tEnd: number,
): { acc: { cwnd: number; sent: number; delivered: number; lost: number }[]; queueDrops: number; randomDrops: number } {
  const G = zCwnd.length;
  const Z = new Float64Array(sys.layout.zSize);
  const mult = Float64Array.from(sys.groups, (g) => g.members.length);
  // Components: 4 per group (cwnd, sent, delivered, lost), then the queue's and the random drops.
  const I = sol.integrate(from, tEnd, 4 * G + 2, (s, y, out) => {
    const z = sys.snapshot(s, y, Z);
    const p = z[zp]!;
    const pq = zpq >= 0 ? z[zpq]! : 0;
    // Of the lost fraction p, pq is the queue's; the rest is random loss among the packets it admits.
    const pRandom = (1 - pq) * (p > pq ? (p - pq) / Math.max(1 - pq, 1e-12) : 0);
    const dv = zDelivered >= 0 ? z[zDelivered]! : 1 - p;
    let arrivals = 0;
    for (let g = 0; g < G; g++) {
      const rate = z[zRate[g]!]!;
      out[4 * g] = z[zCwnd[g]!]!;
      out[4 * g + 1] = rate;
      out[4 * g + 2] = rate * dv;
      out[4 * g + 3] = rate * p;
      arrivals += mult[g]! * rate;
    }
    out[4 * G] = arrivals * pq;
    out[4 * G + 1] = arrivals * pRandom;
  });
  const acc = Array.from({ length: G }, (_, g) => ({ cwnd: I[4 * g]!, sent: I[4 * g + 1]!, delivered: I[4 * g + 2]!, lost: I[4 * g + 3]! }));
  return { acc, queueDrops: I[4 * G]!, randomDrops: I[4 * G + 1]! };
}

/** The trace series on the time grid (a function of its own, so it is optimised as a tight loop). */
function sampleGrid(
  sol: Solution,
  sys: FluidSystem,
  grid: readonly number[],
  idx: readonly { cwnd: number; ssthresh: number; inflight: number; R: number }[],
  qIdx: number,
  mss: number,
): { cw: number[][]; ssth: number[][]; rtt: number[][]; infl: number[][]; qv: number[]; bad: string } {
  const N = idx.length;
  const gridN = grid.length;
  const cw = idx.map(() => new Array<number>(gridN).fill(0));
  const ssth = idx.map(() => new Array<number>(gridN).fill(0));
  const rtt = idx.map(() => new Array<number>(gridN).fill(0));
  const infl = idx.map(() => new Array<number>(gridN).fill(0));
  const qv = new Array<number>(gridN).fill(0);
  const Z = new Float64Array(sys.layout.zSize);
  const y = new Float64Array(sys.layout.n);
  let bad = '';
  for (let g = 0; g < gridN; g++) {
    const t = grid[g]!;
    sol.stateInto(t, y);
    const z = sys.snapshot(t, y, Z);
    for (let i = 0; i < N; i++) {
      const ix = idx[i]!;
      const c = z[ix.cwnd]!;
      const r = z[ix.R]!;
      cw[i]![g] = c * mss;
      ssth[i]![g] = ix.ssthresh >= 0 ? z[ix.ssthresh]! * mss : c * mss;
      rtt[i]![g] = r;
      infl[i]![g] = z[ix.inflight]! * mss;
      if (!bad && !(c >= 0 && Number.isFinite(r))) bad = `window or RTT invalid (cwnd ${c}, R ${r}) at t = ${t.toPrecision(6)}`;
    }
    qv[g] = qIdx >= 0 ? y[qIdx]! : NaN;
  }
  return { cw, ssth, rtt, infl, qv, bad };
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
