import { createRequire } from 'node:module';
import { Piscina } from 'piscina';
import { baseRttS, fairSharesBps, packetBits } from '../scenario/path.js';
import type { RunResult } from '../result/types.js';
import type { CompactRun } from './compact.js';
import type { RunSpec } from './spec.js';
import type { FullReply, WorkerData, WorkerTask } from './worker.js';

/** `.ts` when running the sources (tsx, vitest), `.js` in the compiled output: the worker loads the same kind. */
export const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const WORKER_FILE = new URL(`./worker${EXT}`, import.meta.url).href;

/** The engine module the workers run (src/engines.ts), the same kind as this one. */
export const DEFAULT_ENGINE_MODULE = new URL(`../engines${EXT}`, import.meta.url).href;

/**
 * Workers load TypeScript through tsx's CommonJS hook only (`--require tsx/cjs`, by absolute path so
 * it resolves whatever the cwd). On Node 20 tsx's ESM hooks do not reach worker threads anyway, and
 * registering them (`--import tsx`) starts a loader thread per worker that costs about a second of
 * start-up; piscina requires the worker file first, and worker.ts requires the engine.
 */
function tsxExecArgv(): string[] {
  return EXT === '.ts' ? ['--require', createRequire(import.meta.url).resolve('tsx/cjs')] : [];
}

/**
 * A run's expected cost, only to order the queue (longest first): a packet run's cost grows with the
 * packets its tightest links can carry in its simulated time; a fluid run's with the round trips in
 * its simulated time (the solver's steps follow the RTT: 10 s of the seed study's normal line, 2.2 ms,
 * cost more than 100 s of ns3-normal, 92 ms, which costs about what ~300,000 packets cost).
 */
export function estimatedCost(spec: Pick<RunSpec, 'engine' | 'scenario'>): number {
  const s = spec.scenario;
  if (spec.engine !== 'packet') return (FLUID_COST_PER_RTT * s.durationS) / baseRttS(s);
  // What the path carries in total: the flows' max-min fair shares sum to it.
  const wireBps = fairSharesBps(s).reduce((sum, bps) => sum + bps, 0);
  return (wireBps / packetBits(s)) * s.durationS;
}

/** Runs a worker thread holds while the main thread is busy (RunPool.whileBusy): the one it runs and two more (a model compile or a chart can take as long as two short runs). */
const AHEAD_PER_THREAD = 3;

/** A fluid run's cost per round trip of simulated time, in packets of a packet run's cost. */
const FLUID_COST_PER_RTT = 300;

interface Queued {
  task: WorkerTask;
  /** Whole-result runs (runFull) go before the others. */
  first: boolean;
  cost: number;
  seq: number;
  /** Counted in its home thread's load (assignHomes). */
  counted: boolean;
  resolve: (r: CompactRun | FullReply) => void;
  reject: (e: unknown) => void;
}

/** One worker thread (a piscina of one) and what it has been given. */
interface Lane {
  piscina: Piscina;
  /** Runs handed to it and not finished. */
  running: number;
  /** Estimated cost of the runs of its variants queued so far (which thread ran them aside). */
  load: number;
}

/**
 * `threads` worker threads, one piscina of one thread each, so that we choose the thread. Up to
 * AHEAD_PER_THREAD tasks per thread (all but one waiting in the thread: whileBusy); outside whileBusy
 * one per thread: runs are long, and queueing them inside a busy thread would leave another thread
 * idle at the end. With `preload` (an engine module's URL) each thread loads that module and its
 * packet engine as soon as it starts (worker.ts), not at its first run; piscina's Atomics wait is then
 * off, as it blocks an idle thread's event loop, and with it a preload still loading.
 */
function newLanes(threads: number, preload?: string): Lane[] {
  return Array.from({ length: threads }, () => ({
    piscina: new Piscina({
      filename: WORKER_FILE,
      execArgv: tsxExecArgv(),
      minThreads: 1,
      maxThreads: 1,
      concurrentTasksPerWorker: AHEAD_PER_THREAD,
      ...(preload === undefined ? {} : { atomics: 'disabled' as const, workerData: { preload } satisfies WorkerData }),
    }),
    running: 0,
    load: 0,
  }));
}

/** Threads started by prestartRunPool and not taken by a RunPool yet. */
let prestarted: Lane[] | null = null;

/**
 * Starts `threads` worker threads now, each loading `engineModule` and its packet engine, for the
 * RunPool of as many threads the command creates later (issue 24: `cclab report` starts them before
 * its own modules load, so that a thread's start-up and module loading, ~0.2 CPU-s each, run beside
 * the main thread's instead of after it, before the first run). Nothing if threads are prestarted already.
 */
export function prestartRunPool(threads: number, engineModule: string): void {
  if (threads > 0 && !prestarted) prestarted = newLanes(threads, engineModule);
}

/** The prestarted threads, when there are `threads` of them (the others are stopped). */
function takePrestarted(threads: number): Lane[] | null {
  const lanes = prestarted;
  prestarted = null;
  if (lanes && lanes.length !== threads) {
    void stopLanes(lanes);
    return null;
  }
  return lanes;
}

/** Stops the prestarted threads no RunPool has taken (a command that ran nothing on them). */
export function releasePrestarted(): Promise<void> {
  const lanes = prestarted ?? [];
  prestarted = null;
  return stopLanes(lanes);
}

const stopLanes = (lanes: readonly Lane[]): Promise<void> => Promise.all(lanes.map((l) => l.piscina.destroy())).then(() => undefined);

/** Does queued run `q` go before `b`: whole-result runs first, then the longest, ties in submission order. */
const before = (q: Queued, b: Queued): boolean => (q.first !== b.first ? q.first : q.cost > b.cost || (q.cost === b.cost && q.seq < b.seq));

/**
 * Worker threads shared by every batch of runs of one command (a report's replications, its
 * contrast and its fluid runs on the packet seeds go in together): one pool start-up, no batch
 * waiting for the previous one's last run, and the queue ordered longest run first (ties in
 * submission order), so the short runs fill the cores at the end (LPT scheduling). Runs are handed
 * to a thread only when it is free, so the order is ours, not piscina's FIFO.
 *
 * Each congestion-control variant has a home thread, and a thread takes its own variants' runs first
 * (issue 24): V8 compiles the sender's calls into the variant (onAck, increaseWindow; a fluid run's
 * generated model functions) for the variants that thread has run, and each new one makes those
 * calls polymorphic and throws the compiled code away (deopts, TurboFan recompiles on the
 * background threads). A thread whose own runs are done takes the longest run of the others, so
 * both still end together. Variants go to the thread with the least estimated cost, largest first,
 * as the queue first holds them. Which thread runs what never changes a result: each run is a pure
 * function of its task.
 */
export class RunPool {
  private lanes: Lane[] | null = null;
  private readonly queue: Queued[] = [];
  /** Home thread of each variant seen. */
  private readonly home = new Map<string, number>();
  private running = 0;
  private seq = 0;
  private scheduled = false;
  /** whileBusy calls in progress. */
  private ahead = 0;

  /** Runs handed to the worker threads and not finished yet (at most one per thread, AHEAD_PER_THREAD inside whileBusy). */
  get handedOut(): number {
    return this.running;
  }

  constructor(readonly threads: number) {}

  /** Runs `task` on a worker when its turn comes (highest `cost` first). */
  run(task: WorkerTask, cost: number): Promise<CompactRun> {
    return this.queued(task, cost, false) as Promise<CompactRun>;
  }

  /**
   * The same for a run whose whole result is wanted, traces included (a report's charted runs: on a
   * worker they run with the engines already compiled there, instead of compiling them a third time in
   * the main thread). What the engine threw is thrown here, its name kept (an InputError stays one).
   * These go before every compact run (longest first among themselves): the main thread builds the
   * page's charts from them while the workers run the rest.
   */
  async runFull(task: WorkerTask, cost: number): Promise<RunResult> {
    const reply = (await this.queued({ ...task, full: true }, cost, true)) as FullReply;
    if ('result' in reply) return reply.result;
    throw Object.assign(new Error(reply.thrown.message), { name: reply.thrown.name });
  }

  private queued(task: WorkerTask, cost: number, first: boolean): Promise<CompactRun | FullReply> {
    return new Promise<CompactRun | FullReply>((resolve, reject) => {
      this.queue.push({ task, first, cost, seq: this.seq++, counted: false, resolve, reject });
      // Dispatch after the current tick, so a batch (or several started together) is queued whole before the first pick.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.dispatch();
        });
      }
    });
  }

  /**
   * Runs `f` (this thread's own work: compiling models, building charts) with more runs handed to
   * each worker thread beside the one it runs: the workers take their next run themselves when one
   * ends instead of waiting for this thread to hand it over (a thread busy for a second left both
   * idle, ends reported together). Only meanwhile: a run handed ahead is bound to its thread, which
   * at the end of a batch can leave the other thread idle.
   */
  async whileBusy<T>(f: () => Promise<T>): Promise<T> {
    this.ahead++;
    this.dispatch();
    try {
      return await f();
    } finally {
      this.ahead--;
    }
  }

  /** Gives the variants not seen before a home thread (largest queued cost first, each to the least loaded thread), and counts the new runs in their home's load. */
  private assignHomes(lanes: Lane[]): void {
    const fresh = new Map<string, number>();
    for (const q of this.queue) {
      const v = q.task.scenario.variant;
      if (!this.home.has(v)) fresh.set(v, (fresh.get(v) ?? 0) + q.cost);
    }
    // Ties in the order the queue first holds the variants (a stable sort of Map order): deterministic.
    for (const [v] of [...fresh].sort((a, b) => b[1] - a[1])) {
      let least = 0;
      for (let i = 1; i < lanes.length; i++) if (lanes[i]!.load < lanes[least]!.load) least = i;
      this.home.set(v, least);
      for (const q of this.queue) {
        if (q.task.scenario.variant === v) {
          lanes[least]!.load += q.cost;
          q.counted = true;
        }
      }
    }
    for (const q of this.queue) {
      if (!q.counted) {
        lanes[this.home.get(q.task.scenario.variant)!]!.load += q.cost;
        q.counted = true;
      }
    }
  }

  /** The queue index of lane `li`'s next run of its own variants, or with `steal` of any; -1 when there is none. */
  private pick(li: number, steal: boolean): number {
    let best = -1;
    for (let i = 0; i < this.queue.length; i++) {
      const q = this.queue[i]!;
      if ((steal || this.home.get(q.task.scenario.variant) === li) && (best < 0 || before(q, this.queue[best]!))) best = i;
    }
    return best;
  }

  private dispatch(): void {
    if (this.queue.length === 0) return;
    const lanes = this.workerLanes();
    this.assignHomes(lanes);
    const perThread = this.ahead > 0 ? AHEAD_PER_THREAD : 1;
    // Every thread its own runs first; then a thread with room and none of its own left takes the others' longest.
    for (const steal of [false, true]) {
      for (let li = 0; li < lanes.length; li++) {
        const lane = lanes[li]!;
        for (let i: number; lane.running < perThread && (i = this.pick(li, steal)) >= 0; ) this.hand(lane, this.queue.splice(i, 1)[0]!);
      }
    }
  }

  private hand(lane: Lane, next: Queued): void {
    lane.running++;
    this.running++;
    lane.piscina
      .run(next.task)
      .then((r) => next.resolve(r as CompactRun | FullReply), next.reject)
      .finally(() => {
        lane.running--;
        this.running--;
        this.dispatch();
      });
  }

  private workerLanes(): Lane[] {
    this.lanes ??= takePrestarted(this.threads) ?? newLanes(this.threads);
    return this.lanes;
  }

  /** Stops the threads (after the runs in flight; queued runs are refused). */
  async destroy(): Promise<void> {
    for (const q of this.queue.splice(0)) q.reject(new Error('run pool destroyed'));
    const lanes = this.lanes ?? [];
    this.lanes = null;
    await stopLanes(lanes);
  }
}
