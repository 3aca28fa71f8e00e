import type { EngineSet } from '../engines.js';
import { isPresetName, presetLine } from '../scenario/presets.js';
import type { Scenario } from '../scenario/types.js';
import type { CompactRun } from '../runs/compact.js';
import { executeRuns } from '../runs/execute.js';
import type { RunPool } from '../runs/pool.js';
import type { RunSpec } from '../runs/spec.js';
import { deriveSeed } from '../runs/seed.js';
import { medianInterval, type MedianInterval } from '../runs/stats.js';
import { hasEngine, type Variant } from '../variants.js';

/**
 * Replications of a report's packet runs. Seeds are derived as a sweep derives them (runs/seed.ts):
 * from the report's seed, the scenario (its name is the point) and the replication, and not from the
 * variant, so every variant on a line meets the same random losses (common random numbers: "which
 * variant wins" is then a paired comparison). Runs go through the sweep's executor: its run cache
 * and worker threads.
 */

/**
 * Seed of replication `rep` of scenario `name` in a report seeded with `seed`. A preset counts as its
 * line, so `lfn` and `ns3-lfn` meet the same seeds (the two setups of a line compared on common random
 * numbers; and the seeds the ns-3 setup had when it was called `lfn`).
 */
export function reportSeed(seed: number, name: string, rep: number): number {
  return deriveSeed(seed, { scenario: isPresetName(name) ? presetLine(name) : name }, rep);
}

export interface ReplicatedFigures {
  seeds: number[];
  runs: CompactRun[];
  goodput: MedianInterval;
  timeouts: MedianInterval;
  fastRecoveries: MedianInterval;
  retransmits: MedianInterval;
  meanCwndSegments: MedianInterval;
  /** Runs that failed (excluded from the figures). */
  failed: number;
}

export const caseKey = (scenario: string, variant: string): string => `${scenario}|${variant}`;

/** Median and interval of each figure over the runs that finished. */
export function summarise(seeds: number[], runs: CompactRun[]): ReplicatedFigures {
  const ok = runs.filter((r) => r.status === 'ok');
  const of = (f: (r: CompactRun) => number) => medianInterval(ok.map(f).filter(Number.isFinite));
  return {
    seeds,
    runs,
    goodput: of((r) => r.summary.goodputBps),
    timeouts: of((r) => r.summary.timeouts),
    fastRecoveries: of((r) => r.summary.fastRecoveries),
    retransmits: of((r) => r.summary.retransmits),
    meanCwndSegments: of((r) => r.summary.meanCwndSegments),
    failed: runs.length - ok.length,
  };
}

export interface ReplicateOptions {
  reps: number;
  seed: number;
  /** Run cache (content-addressed, shared with sweeps); null runs everything. */
  cacheDir: string | null;
  workers?: number;
  /** Worker threads shared with the report's other batches (runs/pool.ts). */
  pool?: RunPool;
  modelsDir?: string;
  /** Substitute engines (tests): run in this thread. */
  engines?: EngineSet;
  onProgress?: (done: number, total: number) => void;
  /** First replication to run (1 when the caller runs replication 0 itself, with traces for its charts). */
  fromRep?: number;
}

/** The runs of one case, replication order. */
export interface CaseRuns {
  seeds: number[];
  runs: CompactRun[];
}

/** The packet runs of every scenario x variant, replications `fromRep` to `reps - 1`, per case. */
export function replicatePacket(scenarios: readonly Scenario[], variants: readonly Variant[], opts: ReplicateOptions): Promise<Map<string, CaseRuns>> {
  return replicate('packet', scenarios, () => variants.map((v) => ({ variant: v })), opts);
}

/** Whether a case's fluid run has random loss events (runs/modelRuns.ts randomLossEvents), asked of the scenario with its variant. */
export type HybridCase = (scenario: Scenario) => boolean;

/**
 * The fluid runs beside the packet replications, for the cases whose fluid run has random discrete
 * loss events (runs/modelRuns.ts): replication r with Poisson loss events seeded by the packet
 * replication's seed (the one comparison method of runs/agreement.ts). Deterministic runs need
 * no replications: their one run serves every seed.
 */
export function replicateFluid(scenarios: readonly Scenario[], variants: readonly Variant[], hybrid: HybridCase, opts: ReplicateOptions): Promise<Map<string, CaseRuns>> {
  return replicate('fluid', scenarios, (s) => variants.filter((v) => hybrid({ ...s, variant: v })).map((v) => ({ variant: v, lossProcess: 'poisson' as const })), opts);
}

/**
 * The fluid runs beside a setup's packet replications, as every comparison runs them
 * (runs/agreement.ts): a hybrid case on every packet seed with Poisson loss events, a deterministic
 * one once. The finished runs' goodputs per case (caseKey).
 */
export async function fluidBeside(scenarios: readonly Scenario[], variants: readonly Variant[], hybrid: HybridCase, opts: ReplicateOptions): Promise<Map<string, number[]>> {
  const runs = await fluidBesideRuns(scenarios, variants, hybrid, opts);
  return new Map([...runs].map(([k, r]) => [k, r.runs.filter((x) => x.status === 'ok').map((x) => x.summary.goodputBps)]));
}

/** The runs {@link fluidBeside} makes, whole, per case (caseKey). */
export function fluidBesideRuns(scenarios: readonly Scenario[], variants: readonly Variant[], hybrid: HybridCase, opts: ReplicateOptions): Promise<Map<string, CaseRuns>> {
  // One batch (one worker pool): the hybrid cases on every seed, the deterministic ones on the first.
  const cases = (s: Scenario) => variants.flatMap((v): ReplicateCase[] =>
    hybrid({ ...s, variant: v }) ? [{ variant: v, lossProcess: 'poisson' }] : hasEngine(v, 'fluid') ? [{ variant: v, reps: 1, fromRep: 0 }] : [],
  );
  return replicate('fluid', scenarios, cases, opts);
}

/** Fluid runs {@link fluidBeside} makes: reps per hybrid case, one per other modelled case. */
export function fluidBesideCount(scenarios: readonly Scenario[], variants: readonly Variant[], hybrid: HybridCase, reps: number): number {
  return scenarios.reduce((n, s) => n + variants.reduce((a, v) => a + (hybrid({ ...s, variant: v }) ? reps : hasEngine(v, 'fluid') ? 1 : 0), 0), 0);
}

/** One variant's runs in a batch: its loss process, and its own replication range when not the batch's. */
interface ReplicateCase {
  variant: Variant;
  lossProcess?: 'poisson';
  reps?: number;
  fromRep?: number;
}

async function replicate(engine: 'packet' | 'fluid', scenarios: readonly Scenario[], cases: (s: Scenario) => readonly ReplicateCase[], opts: ReplicateOptions): Promise<Map<string, CaseRuns>> {
  const specs: RunSpec[] = [];
  for (const s of scenarios) {
    for (const { variant, lossProcess, reps = opts.reps, fromRep = opts.fromRep ?? 0 } of cases(s)) {
      for (let rep = fromRep; rep < reps; rep++) {
        const seed = reportSeed(opts.seed, s.name, rep);
        specs.push({
          index: specs.length,
          runId: `report-${s.name}-${variant}-${engine}-r${rep}`,
          pointId: `report-${s.name}`,
          point: [],
          variant,
          engine,
          rep,
          seed,
          scenario: { ...s, variant, seed },
          ...(lossProcess ? { lossProcess } : {}),
        });
      }
    }
  }
  const engines = opts.engines;
  const records = specs.length === 0 ? [] : await executeRuns(specs, {
    cacheDir: opts.cacheDir,
    ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
    ...(opts.pool ? { pool: opts.pool } : {}),
    ...(opts.modelsDir !== undefined ? { modelsDir: opts.modelsDir } : {}),
    ...(engines ? { engine: (e, s) => (e === 'packet' ? engines.runPacket(s) : engines.runFluid(s)) } : {}),
    ...(opts.onProgress ? { onProgress: (p) => opts.onProgress!(p.done, p.total) } : {}),
  });
  const out = new Map<string, CaseRuns>();
  for (const s of scenarios) {
    for (const { variant: v } of cases(s)) {
      const mine = records.filter((r) => r.spec.scenario.name === s.name && r.spec.variant === v);
      out.set(caseKey(s.name, v), { seeds: mine.map((r) => r.spec.seed), runs: mine.map((r) => r.result) });
    }
  }
  return out;
}

export interface LineWinner {
  scenario: string;
  /** Variant with the highest median goodput. */
  best: Variant | null;
  /** True when the best one's interval lies above every other variant's: only then is it marked a winner. */
  separated: boolean;
  /** Variants whose interval overlaps the best one's (the best included), when not separated. */
  leaders: Variant[];
  /** Why no winner is marked, when none is. */
  reason?: string;
}

/**
 * Which variant wins on a line: the highest median packet goodput, marked only when its 95% interval
 * lies entirely above every other variant's (with one replication there are no intervals, so no mark).
 */
export function lineWinner(scenario: string, variants: readonly Variant[], figures: ReadonlyMap<string, ReplicatedFigures>): LineWinner {
  const rows = variants
    .map((v) => ({ v, g: figures.get(caseKey(scenario, v))?.goodput }))
    .filter((r): r is { v: Variant; g: MedianInterval } => r.g !== undefined && Number.isFinite(r.g.median));
  if (rows.length === 0) return { scenario, best: null, separated: false, leaders: [], reason: 'no packet runs finished' };
  const top = rows.reduce((a, b) => (b.g.median > a.g.median ? b : a));
  if (rows.length === 1) return { scenario, best: top.v, separated: false, leaders: [top.v], reason: 'only one variant' };
  if (!Number.isFinite(top.g.low)) return { scenario, best: top.v, separated: false, leaders: [top.v], reason: 'one replication: no intervals to separate' };
  const leaders = rows.filter((r) => r === top || r.g.high >= top.g.low).map((r) => r.v);
  const separated = leaders.length === 1;
  return { scenario, best: top.v, separated, leaders, ...(separated ? {} : { reason: 'intervals overlap' }) };
}
