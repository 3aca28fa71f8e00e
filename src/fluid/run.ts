import type { Scenario } from '../scenario/types.js';
import type { DropCounters, FlowSummary, FlowTrace, RunResult, Series } from '../result/types.js';
import { solve } from '../solver/index.js';
import type { SolveOptions } from '../solver/index.js';
import { defaultModels, loadModels } from './models.js';
import type { ModelSet } from './models.js';
import { mapScenario } from './scenarioMap.js';
import { buildSystem } from './system.js';
import type { LossProcess } from './system.js';

export interface RunFluidOptions {
  /** Directory of model files (default: the repository's models/). */
  modelsDir?: string;
  /** Already loaded models (saves re-reading the files in a sweep). */
  models?: ModelSet;
  /** Model parameter overrides by name; unknown names are an InputError. ccParams of the Scenario apply too. */
  params?: Record<string, number>;
  /** Solver settings (defaults: rtol 1e-5, atol 1e-7: mean cwnd within 0.2% of a 1e-6 solution on every preset x variant; the hybrid models need it, their event sequences amplify looser errors). */
  solver?: SolveOptions;
  /**
   * Loss events of the hybrid models (tahoe, cubic): 'periodic' (default, deterministic, the
   * expected-value form) or 'poisson' (seeded by scenario.seed: one sample path of a stochastic hybrid
   * system; take the median over seeds as for the packet engine). Mean-field models ignore it.
   */
  lossProcess?: LossProcess;
  /** Points of the output time grid (default min(scenario.trace.maxPoints, 2000)). */
  gridPoints?: number;
}

const GL_X = [-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526];
const GL_W = [0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538];

/**
 * Solve the fluid model of `scenario.variant` on the Scenario and return a RunResult shaped like the
 * packet engine's (engine 'fluid'). Windows are reported in bytes (segments x MSS); srtt is
 * R(t) = Tp + q/C; goodput is the delivered rate rate x (1 - p) x MSS. Time averages are exact
 * integrals of the dense solution (Gauss-Legendre per step). A model that blows up (NaN, step-size
 * collapse) gives status 'failed' with the reason and NaN summary numbers, never numbers that look valid.
 *
 * @throws InputError for bad model files or bad parameters (the CLI exits with code 2).
 */
export function runFluid(scenario: Scenario, opts: RunFluidOptions = {}): RunResult {
  const wall0 = performance.now();
  const models = opts.models ?? (opts.modelsDir ? loadModels(opts.modelsDir) : defaultModels());
  const compiled = models.system(scenario.variant);
  const { link, flows } = mapScenario(scenario);
  const sys = buildSystem(compiled, link, flows, scenario.durationS, scenario.ccParams, opts.params, { process: opts.lossProcess ?? 'periodic', seed: scenario.seed });
  const hybrid = compiled.flow.form === 'hybrid';
  const sol = solve(sys.problem, { rtol: 1e-5, atol: 1e-7, ...opts.solver });

  const mss = scenario.mssBytes;
  const tEnd = sol.tEnd;
  const gridN = Math.max(2, opts.gridPoints ?? Math.min(scenario.trace.maxPoints, 2000));
  const grid = Array.from({ length: gridN }, (_, k) => (tEnd * k) / (gridN - 1));
  const Z = new Float64Array(sys.zSize);
  const y = new Array<number>(sys.n).fill(0);
  const at = (t: number): Float64Array => {
    sol.stateInto(t, y);
    return sys.snapshot(t, y, Z);
  };
  const idx = flows.map((_, i) => ({
    cwnd: sys.zFlow(i, 'cwnd'),
    ssthresh: sys.zFlow(i, 'ssthresh'),
    inflight: sys.zFlow(i, 'inflight') >= 0 ? sys.zFlow(i, 'inflight') : sys.zFlow(i, 'cwnd'),
    rate: sys.zFlow(i, 'rate'),
    R: sys.zFlow(i, 'R'),
  }));
  const zp = sys.zBottleneck('p');
  const zpq = sys.zBottleneck('pq');
  const qIdx = sys.yIndex(-1, 'q');

  const traces: FlowTrace[] = flows.map(() => ({ cwndBytes: series(), ssthreshBytes: series(), srttS: series(), inflightBytes: series() }));
  const queue: Series = series();
  let bad = '';
  for (const t of grid) {
    const z = at(t);
    flows.forEach((_, i) => {
      const tr = traces[i]!;
      const ix = idx[i]!;
      push(tr.cwndBytes, t, z[ix.cwnd]! * mss);
      push(tr.ssthreshBytes, t, ix.ssthresh >= 0 ? z[ix.ssthresh]! * mss : z[ix.cwnd]! * mss);
      push(tr.srttS, t, z[ix.R]!);
      push(tr.inflightBytes, t, z[ix.inflight]! * mss);
      if (!bad && !(z[ix.cwnd]! >= 0 && Number.isFinite(z[ix.R]!))) bad = `window or RTT invalid (cwnd ${z[ix.cwnd]}, R ${z[ix.R]}) at t = ${t.toPrecision(6)}`;
    });
    push(queue, t, qIdx >= 0 ? y[qIdx]! : NaN);
  }

  // Time integrals over the measurement interval, per flow: cwnd, sent rate, delivered rate, lost rate.
  const from = Math.min(scenario.measureFromS, tEnd);
  const span = scenario.durationS - scenario.measureFromS;
  const acc = flows.map(() => ({ cwnd: 0, sent: 0, delivered: 0, lost: 0 }));
  let queueDrops = 0;
  let randomDrops = 0;
  const mesh = sol.mesh();
  for (let k = 0; k + 1 < mesh.length; k++) {
    const lo = Math.max(from, mesh[k]!);
    const hi = Math.min(tEnd, mesh[k + 1]!);
    if (hi <= lo) continue;
    const mid = 0.5 * (lo + hi);
    const half = 0.5 * (hi - lo);
    for (let j = 0; j < 4; j++) {
      const z = at(mid + half * GL_X[j]!);
      const w = GL_W[j]! * half;
      const p = z[zp]!;
      for (let i = 0; i < flows.length; i++) {
        const a = acc[i]!;
        const rate = z[idx[i]!.rate]!;
        a.cwnd += w * z[idx[i]!.cwnd]!;
        a.sent += w * rate;
        a.delivered += w * rate * (1 - p);
        a.lost += w * rate * p;
        const pq = zpq >= 0 ? z[zpq]! : 0;
        queueDrops += w * rate * pq;
        randomDrops += w * rate * (1 - pq) * (p > pq ? (p - pq) / Math.max(1 - pq, 1e-12) : 0);
      }
    }
  }
  const failed = sol.status === 'failed' || bad !== '';
  const failure = sol.status === 'failed' ? `fluid model '${scenario.variant}' failed: ${sol.message}` : bad ? `fluid model '${scenario.variant}' failed: ${bad}` : undefined;
  const nan = (v: number): number => (failed ? NaN : v);
  // Window reductions: hybrid models count their reduction events; mean-field models have none but
  // the expected number of loss indications, the integral of rate x p.
  const reductions = new Set(compiled.events.filter((e) => e.reduction).map((e) => e.name));
  const hybridCounts = hybrid;
  const lossEvents = (i: number): number =>
    sol.events.filter((e) => {
      const name = flows.length > 1 ? (e.name.startsWith(`flow ${i}: `) ? e.name.slice(`flow ${i}: `.length) : '') : e.name;
      return reductions.has(name);
    }).length;
  const flowSummaries: FlowSummary[] = acc.map((a, i) => {
    const meanCwndSeg = a.cwnd / span;
    return {
      flowId: i,
      goodputBps: nan((a.delivered * mss * 8) / span),
      throughputBps: nan((a.sent * mss * 8) / span),
      meanCwndBytes: nan(meanCwndSeg * mss),
      meanCwndSegments: nan(meanCwndSeg),
      bytesDelivered: nan(a.delivered * mss),
      bytesSent: nan(a.sent * mss),
      // Expected counts: each lost packet is retransmitted; loss indications of the mean-field models
      // are the expected number of window reductions; hybrid models count their loss events.
      retransmits: nan(Math.round(a.lost)),
      timeouts: nan(0),
      fastRecoveries: nan(hybridCounts ? lossEvents(i) : Math.round(a.lost)),
      lossRate: nan(a.sent > 0 ? a.lost / a.sent : 0),
    };
  });
  const sum = (f: (s: FlowSummary) => number): number => flowSummaries.reduce((x, s) => x + f(s), 0);
  const drops: DropCounters = { queue: nan(Math.round(queueDrops)), random: nan(Math.round(randomDrops)), ackRandom: 0, ackQueue: 0 };
  const sent = sum((s) => s.bytesSent);
  return {
    engine: 'fluid',
    variant: scenario.variant,
    scenario: scenario.name,
    spec: scenario,
    durationS: scenario.durationS,
    mssBytes: mss,
    status: failed ? 'failed' : 'ok',
    ...(failure ? { failure } : {}),
    summary: {
      goodputBps: sum((s) => s.goodputBps),
      throughputBps: sum((s) => s.throughputBps),
      meanCwndBytes: sum((s) => s.meanCwndBytes) / flows.length,
      meanCwndSegments: sum((s) => s.meanCwndSegments) / flows.length,
      retransmits: sum((s) => s.retransmits),
      timeouts: sum((s) => s.timeouts),
      fastRecoveries: sum((s) => s.fastRecoveries),
      drops,
      lossRate: sent > 0 ? sum((s) => s.lossRate * s.bytesSent) / sent : nan(0),
    },
    flows: flowSummaries.map((summary, i) => ({ summary, trace: traces[i]! })),
    queue: { packets: queue },
    stats: {
      wallS: (performance.now() - wall0) / 1000,
      solver: { steps: sol.stats.steps, rejected: sol.stats.rejected, rhsEvaluations: sol.stats.rhsEvaluations, events: sol.stats.events },
    },
  };
}

function series(): Series {
  return { t: [], v: [] };
}

function push(s: Series, t: number, v: number): void {
  s.t.push(t);
  s.v.push(v);
}

