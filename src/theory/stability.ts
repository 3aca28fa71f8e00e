import type { MathNode } from 'mathjs';
import { det, evaluate, inv, multiply } from '../io/mathjs.js';
import { InputError } from '../errors.js';
// Registers the in-process compiler, so that a model missing from the disk cache compiles here
// (mathjs is loaded for the derivatives anyway) rather than in a child process.
import '../fluid/compiler/compileFiles.js';
import { describe, type ParsedModel } from '../fluid/language/modelDoc.js';
import { DEFAULT_MODELS_DIR, modelSystems } from '../fluid/compiler/systemCache.js';
import { bindBottleneck, bindFlow } from '../fluid/run/params.js';
import { mapScenario } from '../fluid/run/scenarioMap.js';
import { flowCc } from '../scenario/flowCc.js';
import type { Scenario } from '../scenario/types.js';
import { charSolve, cmul, loopMargins, openLoopPoles, solveC, type Cx } from './frequencyResponse.js';
import { derivativeAt, evaluator, isZeroAt, linearModel, resolveAt, type LinearModel } from './linearModel.js';

/**
 * Linear stability of the TCP/queue loop from the fluid models' own equations, after Hollot,
 * Misra, Towsley, Gong, "A control theoretic analysis of RED", IEEE INFOCOM 2001: the equilibrium
 * of N identical flows on the bottleneck, the loop linearised around it (mathjs derivatives of the
 * model files' right-hand sides, delayed terms at the equilibrium RTT R0), broken at the drop
 * probability p:
 *
 *   plant   s x = (A0 + A1 e^{-s R0}) x + (B0 + B1 e^{-s R0}) dp      (flow states and the queue)
 *   AQM     s z = G_x x + G_z z,   dp = D_x x + D_z z                  (RED's average; none for drop-tail)
 *
 * L(s) = -(D_x + D_z (sI - G_z)^-1 G_x)(sI - A0 - A1 e^{-s R0})^-1 (B0 + B1 e^{-s R0}), closed loop
 * 1 + L = 0. With MGT's Reno equation and RED this is exactly their
 * L(s) = L_red (R0 C)^3 / (2N)^2 e^{-s R0} / ((s/K + 1)(s R0^2 C / (2N) + 1)(s R0 + 1)) up to the two
 * terms they drop (the delayed window and queue terms, small below the crossover).
 */

export type QueueRegime = 'standing' | 'empty' | 'full';

export interface Equilibrium {
  regime: QueueRegime;
  /** Every continuous state at the equilibrium (per flow for flow states). */
  states: Record<string, number>;
  W0: number;
  q0: number;
  p0: number;
  R0: number;
  /** Newton iterations used. */
  iterations: number;
}

export interface LoopAnalysis {
  equilibrium: Equilibrium;
  /** |L(0)|: the loop's static gain. */
  dcGain: number;
  /** Gain crossover |L| = 1, rad/s (null when |L| < 1 at every frequency). */
  crossoverRadS: number | null;
  /** 180 deg + the unwrapped arg L at the gain crossover (Infinity without one). */
  phaseMarginDeg: number;
  /** Phase crossover arg L = -180 deg, rad/s (null without one). */
  phaseCrossoverRadS: number | null;
  /** 1 / |L| at the phase crossover (Infinity without one). */
  gainMargin: number;
  /** By the Nyquist criterion: 1 + L(jw) does not encircle 0 (the open loop has no right-half-plane pole, checked). */
  stable: boolean;
  /**
   * Whether p depends on the state at the equilibrium. Without it (random loss only, the queue empty
   * or below every drop threshold) L is 0: no loop through p, margins infinite, and `stable` is the
   * plant's own verdict (its poles with p held).
   */
  feedback: boolean;
  /** L(jw) on the frequency grid (for a Nyquist or Bode plot). */
  response: { wRadS: number; re: number; im: number }[];
  /** L(jw) at any frequency, rad/s. */
  at(wRadS: number): { re: number; im: number };
  /** Why the loop could not be analysed this way, when it could not (then the figures are NaN). */
  note?: string;
}

/** The two model files of one loop: the shared bottleneck and the flows' model. */
export interface LoopModels {
  dir: string;
  bottleneck: ParsedModel;
  flow: ParsedModel;
}

/**
 * The bottleneck and `variant`'s model from `dir`, through the fluid engine's per-model source
 * (src/fluid/compiler/systemCache.ts: content-keyed, so a broken file elsewhere in `dir` does not matter).
 */
export function loopModels(variant: string, dir: string = DEFAULT_MODELS_DIR, bottleneck?: string): LoopModels {
  const sys = modelSystems(dir).system(variant, bottleneck);
  return { dir, bottleneck: described(sys.bottleneck), flow: described(sys.flow) };
}

/** Described once per file object (one per content, systemCache.ts): describe typesets LaTeX the analysis never reads, ~10% of it again per case. */
const descriptions = new WeakMap<object, ParsedModel>();
const described = (m: Parameters<typeof describe>[0]): ParsedModel => descriptions.get(m) ?? descriptions.set(m, describe(m)).get(m)!;

/** Every parameter both models need, from the scenario (as the fluid engine binds them). */
export function loopValues(s: Scenario, modelsDir?: string, params: Record<string, number> = {}): { values: Record<string, number>; N: number; variant: string; models: LoopModels } {
  const { link, flows } = mapScenario(s);
  const cc = flowCc(s, 0);
  for (let i = 1; i < s.flows.length; i++) {
    const o = flowCc(s, i);
    if (o.variant !== cc.variant) throw new InputError(`flows[${i}].variant`, `is ${o.variant}: the linear analysis needs identical flows (flow 0 runs ${cc.variant})`);
  }
  const models = loopModels(cc.variant, modelsDir, link.model);
  const flow = models.flow;
  const values: Record<string, number> = {};
  const fv = bindFlow(flow.source, flows[0]!, cc.ccParams, params);
  flow.source.params.forEach((p, k) => (values[p.name] = fv[k]!));
  const bv = bindBottleneck(models.bottleneck.source, link);
  models.bottleneck.source.params.forEach((p, k) => (values[p.name] = bv[k]!));
  return { values, N: s.flows.length, variant: cc.variant, models };
}

/** The loop of a Scenario's N identical flows at their equilibrium (modes: every discrete state 0, i.e. congestion avoidance). */
export function scenarioStability(s: Scenario, opts: { modelsDir?: string; params?: Record<string, number>; modes?: Record<string, number> } = {}): LoopAnalysis {
  const { values, N, models } = loopValues(s, opts.modelsDir, opts.params);
  return analyseLoop(models, N, values, opts.modes);
}

/**
 * The equilibrium and loop of N flows of `models.flow` on `models.bottleneck`, every parameter in `values` (both
 * models'), discrete states in `modes` (default 0: congestion avoidance, no hold-off).
 */
export function analyseLoop(models: LoopModels, N: number, values: Record<string, number>, modes: Record<string, number> = {}): LoopAnalysis {
  let byBottleneck = analyses.get(models.flow.source);
  if (!byBottleneck) analyses.set(models.flow.source, (byBottleneck = new WeakMap()));
  let byPoint = byBottleneck.get(models.bottleneck.source);
  if (!byPoint) byBottleneck.set(models.bottleneck.source, (byPoint = new Map()));
  const key = JSON.stringify([N, values, modes]);
  let a = byPoint.get(key);
  if (!a) byPoint.set(key, (a = analyseLoopUncached(models, N, values, modes)));
  return a;
}

/**
 * The analyses made in this process, by the two models and the point. The model sources are the
 * compiled systems' (src/fluid/compiler/systemCache.ts hands out the same object while a file's
 * bytes stay the same, a new one when they change), and an analysis is a pure function of them and
 * the point: asked again (Hollot et al.'s example is computed by the report and its tests; a test
 * run shares one module graph per worker), it is returned, not recomputed (~0.4 CPU-s a point).
 */
const analyses = new WeakMap<object, WeakMap<object, Map<string, LoopAnalysis>>>();

function analyseLoopUncached(models: LoopModels, N: number, values: Record<string, number>, modes: Record<string, number>): LoopAnalysis {
  const flow = models.flow;
  const discrete: Record<string, number> = {};
  for (const st of [...flow.states, ...models.bottleneck.states]) if (st.discrete) discrete[st.name] = modes[st.name] ?? 0;
  const all = { ...values, ...discrete };
  const lm = linearModel(flow, models.bottleneck, N, all);
  const guesses: Record<string, number> = {};
  for (const st of [...flow.states, ...models.bottleneck.states]) if (st.guess !== undefined) guesses[st.name] = Number(evaluate(st.guess, { ...all }));
  // A guess is a starting point, not a value: when Newton does not converge from it (a piecewise gain,
  // PIE's auto-tuning bands, between it and the root), the guesses other than the queue's are tried a
  // decade and two lower, then higher.
  let eq: Equilibrium | undefined;
  let firstError: unknown;
  for (const scale of Object.keys(guesses).some((k) => k !== 'q') ? [1, 0.1, 0.01, 0.001, 10] : [1]) {
    const scaled = Object.fromEntries(Object.entries(guesses).map(([k, v]) => [k, k === 'q' ? v : v * scale]));
    try {
      eq = equilibrium(lm, all, N, scaled);
      break;
    } catch (e) {
      firstError ??= e;
    }
  }
  if (!eq) throw firstError;
  if (eq.regime === 'full' && all.overflowCuts === 1) {
    // The model answers a full queue's bursts with discrete window cuts: a sawtooth, not a linear loop.
    const nan = NaN;
    return {
      equilibrium: eq, dcGain: nan, crossoverRadS: null, phaseMarginDeg: nan, phaseCrossoverRadS: null, gainMargin: nan, stable: false, feedback: true, response: [],
      at: () => ({ re: nan, im: nan }),
      note: `the queue is held full: ${flow.file} answers each overflow with a window cut (overflowCuts), a sawtooth limit cycle rather than a linear loop`,
    };
  }
  return loopAt(lm, eq);
}

/** Scope of a point: every state, its delayed copy (equal at an equilibrium), p and p_tau. */
function scopeOf(lm: LinearModel, x: Record<string, number>, pEval: (sc: Record<string, number>) => number): Record<string, number> {
  const sc: Record<string, number> = {};
  for (const k of Object.keys(x)) {
    sc[k] = x[k]!;
    sc[`${k}_tau`] = x[k]!;
  }
  const p = pEval(sc);
  sc.p = p;
  sc.p_tau = p;
  return sc;
}

/**
 * The equilibrium: Newton on the right-hand sides (finite-difference Jacobian, damped), delayed
 * values equal to current ones. The queue first free inside (0, B); if that has no solution there,
 * held at B (drop-tail overflow sets p) or at 0 (the link is not full).
 */
export function equilibrium(lm: LinearModel, values: Record<string, number>, N: number, guesses: Record<string, number> = {}): Equilibrium {
  const f = lm.rhs.map(evaluator);
  const pE = evaluator(lm.p);
  const pEval = (sc: Record<string, number>) => Number(pE.evaluate(sc));
  const C = values.C!;
  const B = values.B!;
  const Tp = values.Tp!;
  const qi = lm.states.indexOf('q');
  const regimes: { regime: QueueRegime; q: number | null }[] = [{ regime: 'standing', q: null }, { regime: 'full', q: B }, { regime: 'empty', q: 0 }];
  // Newton starts from the window that fills the link; where none of the three regimes converges from
  // there, smaller starting windows are tried (a heavily lossy line's window is a few segments against a
  // BDP of tens: Reno on ns3-lossy, 4 against 34, ran to W -> 0 from the full-link start).
  const tries = [1, 1 / 4, 1 / 16].flatMap((wScale) => regimes.map((r) => ({ ...r, wScale })));
  let last = '';
  for (const t of tries) {
    // Initial guess: the queue in the middle of RED's range (or of the buffer), the window that fills the link.
    const q0 = t.q ?? guesses.q ?? (values.red === 1 ? Math.min(B, (values.minTh! + values.maxTh!) / 2) : B / 2);
    const x: Record<string, number> = {};
    lm.states.forEach((s) => (x[s] = s === 'q' || s === 'v' ? q0 : s in guesses ? guesses[s]! : 0));
    const fillW = ((Tp + q0 / C) * C) / N;
    x.W = t.wScale === 1 ? fillW : Math.max(1, t.wScale * fillW);
    const free = lm.states.filter((s, i) => !(i === qi && t.q !== null) && !isZeroAt(lm.rhs[i]!, scopeOf(lm, x, pEval)));
    // Other states (filters) start at their own fixed point given W and q: a few relaxation passes.
    for (const s of free) if (s !== 'W' && s !== 'q' && s !== 'v' && !(s in guesses)) x[s] = guessFilter(lm, s, x, f, pEval);
    const res = (): number[] => free.map((s) => Number(f[lm.states.indexOf(s)]!.evaluate(scopeOf(lm, x, pEval))));
    let it = 0;
    let stop = '';
    let r = res();
    let norm = Math.hypot(...r);
    for (; it < 200 && norm > 1e-10 * (1 + Math.abs(x.W!)); it++) {
      const J = free.map(() => new Array<number>(free.length).fill(0));
      free.forEach((s, j) => {
        const h = 1e-7 * Math.max(1, Math.abs(x[s]!));
        const keep = x[s]!;
        x[s] = keep + h;
        const up = res();
        x[s] = keep - h;
        const dn = res();
        x[s] = keep;
        for (let i = 0; i < free.length; i++) J[i]![j] = (up[i]! - dn[i]!) / (2 * h);
      });
      // A singular Jacobian ends this try (named in the error if no try succeeds); inv would throw.
      const d = Number(det(J));
      if (!Number.isFinite(d) || d === 0) {
        stop = `singular Jacobian at iteration ${it}`;
        break;
      }
      const step = (multiply(inv(J), r) as unknown as number[]).map((v) => -v);
      let lambda = 1;
      const base = free.map((s) => x[s]!);
      for (let k = 0; k < 30; k++) {
        free.forEach((s, j) => (x[s] = Math.max(s === 'W' ? 1e-9 : -Infinity, base[j]! + lambda * step[j]!)));
        const rn = res();
        const nn = Math.hypot(...rn);
        if (Number.isFinite(nn) && nn < norm) {
          r = rn;
          norm = nn;
          break;
        }
        lambda /= 2;
        if (k === 29) free.forEach((s, j) => (x[s] = base[j]!));
      }
      if (lambda < 1e-8) break;
    }
    const q = x.q ?? 0;
    const sc = scopeOf(lm, x, pEval);
    const ok = norm <= 1e-6 * (1 + Math.abs(x.W!)) && x.W! > 0;
    const A = (N * x.W!) / (Tp + q / C);
    const consistent = t.regime === 'standing' ? q > 0 && q < B : t.regime === 'full' ? A >= C * (1 - 1e-9) : A <= C * (1 + 1e-9);
    if (ok && consistent) {
      return { regime: t.regime, states: x, W0: x.W!, q0: q, p0: sc.p!, R0: Tp + q / C, iterations: it };
    }
    last = `${t.regime}: residual ${norm.toExponential(2)}, q ${q.toFixed(2)}, A/C ${(A / C).toFixed(4)}${stop ? `, ${stop}` : ''}`;
  }
  throw new InputError('stability', `no equilibrium found for ${N} flows (tried a standing queue, a full and an empty one, each from the window that fills the link and from 1/4 and 1/16 of it; ${last})`);
}

/** A filter state's value when everything else is held: solve its own equation alone (it is linear in it). */
function guessFilter(lm: LinearModel, s: string, x: Record<string, number>, f: ReturnType<typeof evaluator>[], pEval: (sc: Record<string, number>) => number): number {
  const i = lm.states.indexOf(s);
  const at = (v: number) => {
    const y = { ...x, [s]: v };
    return Number(f[i]!.evaluate(scopeOf(lm, y, pEval)));
  };
  const a = at(0);
  const b = at(1);
  return b !== a ? -a / (b - a) : 0;
}

/** The loop L(jw) and its margins at the equilibrium. */
export function loopAt(lm: LinearModel, eq: Equilibrium): LoopAnalysis {
  const sc = scopeOf(lm, eq.states, (s) => Number(evaluator(lm.p).evaluate(s)));
  const isCtrl = (s: string) => lm.bottleneckStates.includes(s) && s !== 'q';
  const live = lm.states.filter((s, i) => !(s === 'q' && eq.regime !== 'standing') && !isZeroAt(lm.rhs[i]!, sc));
  const P = live.filter((s) => !isCtrl(s));
  const Z = live.filter(isCtrl);
  // Each right-hand side on the operating point's branch once, then differentiated per variable.
  const resolved = lm.rhs.map((n) => resolveAt(n, sc));
  const row = (node: MathNode, vars: string[]) => vars.map((v) => derivativeAt(node, v, sc));
  const rhsOf = (s: string) => resolved[lm.states.indexOf(s)]!;
  const A0 = P.map((s) => row(rhsOf(s), P));
  const A1 = P.map((s) => row(rhsOf(s), P.map((v) => `${v}_tau`)));
  const B0 = P.map((s) => derivativeAt(rhsOf(s), 'p', sc));
  const B1 = P.map((s) => derivativeAt(rhsOf(s), 'p_tau', sc));
  const Gx = Z.map((s) => row(rhsOf(s), P));
  const Gz = Z.map((s) => row(rhsOf(s), Z));
  // p at the current time: of the plant states (directly, and through A = N rate) and the AQM's.
  const pNode = resolveAt(lm.p, sc);
  const Dx = row(pNode, P);
  const Dz = row(pNode, Z);
  const feedback = [...Dx, ...Dz].some((d) => d !== 0);
  const R0 = eq.R0;

  const L = (w: number): Cx => {
    const e: Cx = [Math.cos(w * R0), -Math.sin(w * R0)];
    const { x: xP } = charSolve(A0, A1, w, R0, P.map((_, i) => [B0[i]! + B1[i]! * e[0], B1[i]! * e[1]] as Cx));
    const K: Cx[] = Dx.map((d) => [d, 0] as Cx);
    if (Z.length > 0) {
      // Dz (sI - Gz)^-1 Gx, one column of Gx at a time.
      const Mz = Gz.map((r, i) => r.map((g, j) => [-g, i === j ? w : 0] as Cx));
      for (let j = 0; j < P.length; j++) {
        const { x: col } = solveC(Mz, Gx.map((r) => [r[j]!, 0] as Cx));
        for (let i = 0; i < Z.length; i++) K[j] = [K[j]![0] + Dz[i]! * col[i]![0], K[j]![1] + Dz[i]! * col[i]![1]];
      }
    }
    let g: Cx = [0, 0];
    for (let j = 0; j < P.length; j++) {
      const t = cmul(K[j]!, xP[j]!);
      g = [g[0] + t[0], g[1] + t[1]];
    }
    return [-g[0], -g[1]];
  };

  // AQM states that integrate (a zero row of Gz: PIE's drop probability) put a pole of L at s = 0.
  const m = loopMargins(L, R0, Gz.filter((r) => r.every((g) => g === 0)).length);
  const openLoopStable = openLoopPoles(A0, A1, Gz, R0);
  const out: LoopAnalysis = {
    equilibrium: eq,
    dcGain: m.dcGain,
    crossoverRadS: m.crossoverRadS,
    phaseMarginDeg: m.phaseMarginDeg,
    phaseCrossoverRadS: m.phaseCrossoverRadS,
    gainMargin: m.gainMargin,
    stable: openLoopStable && m.encirclements === 0 && m.rollsOff,
    feedback,
    response: m.response,
    at: (w) => {
      const v = L(w);
      return { re: v[0], im: v[1] };
    },
  };
  if (!feedback) out.note = `p does not depend on the state at this point (random loss only, the queue ${eq.regime === 'empty' ? 'empty' : 'below every drop threshold'}): no loop through p, the verdict is the plant's own poles`;
  else if (!openLoopStable) out.note = 'the open loop has a pole in the right half-plane: the margins do not decide stability';
  else if (m.dcGain > 0 && L(0)[0] < 0) out.note = 'L(0) < 0 (positive feedback at low frequency): the margins do not decide stability';
  return out;
}
