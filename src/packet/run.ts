import type { CongestionControl } from '../cc/types.js';
import { Simulator, secondsToNs } from '../engine/simulator.js';
import { TraceRecorder } from '../engine/trace.js';
import { Dumbbell } from '../net/dumbbell.js';
import type { RunResult } from '../result/types.js';
import type { Scenario } from '../scenario/types.js';
import type { TcpReceiver } from '../tcp/receiver.js';
import { initialWindowBytes } from '../tcp/sender.js';
import { createReceivers, createSenders, PacketEndpoints } from './endpoints.js';
import { EV_APP_START, EV_APP_STOP, EV_MEASURE, EV_RATE_CHANGE, PacketEvents } from './events.js';
import { FlowStats, StatsObserver } from './flow-stats.js';
import { checkEngineInput } from './input.js';
import { checkFlowAccounting, checkQueueAccounting, InvariantMonitor } from './invariants.js';
import type { PacketModel } from './model.js';
import { QueueDelayStats } from './queue-delay.js';
import { buildResult } from './result.js';

export type { PacketModel };

/** Options for tests and tools; a plain run needs none. */
export interface RunOptions {
  /** Overrides the registry's algorithm (per flow), e.g. a test double. */
  makeCc?: (flow: number) => CongestionControl;
  /**
   * What the run records besides its counters. 'all' (the default): every time series (each flow's
   * cwnd, ssthresh, srtt and inflight; the traced queue's length and its packets' queueing delays)
   * and the queueing-delay distributions (`summary.queueDelay` per flow, `queue.delay`). 'summary':
   * only what `RunResult.summary` and the flows' summaries without `queueDelay` need (the time-weighted
   * mean cwnd is still integrated), the series left empty: what a sweep or a replication keeps of a run
   * (src/runs/compact.ts) reads nothing else, and recording was ~20% of an event's cost in the
   * single-flow large case and more at 1000 flows (issue 24). Every field the summaries hold is the
   * same byte for byte in both modes (test/packet/record-summary.test.ts).
   */
  record?: 'all' | 'summary';
}

/**
 * Builds the packet model of a scenario without running it: the dumbbell, one TCP sender and
 * receiver per flow, the queue's traces, the event dispatch and the scheduled application
 * start/stop, measurement and rate-change events.
 */
export function buildPacketModel(scenario: Scenario, options: RunOptions = {}): PacketModel {
  checkEngineInput(scenario);
  const sim = new Simulator(() => undefined);
  const net = new Dumbbell(sim, scenario);
  const durationNs = secondsToNs(scenario.durationS);
  const fromNs = secondsToNs(scenario.measureFromS);
  const tcp = scenario.tcp;
  const series = options.record !== 'summary';
  const stats = scenario.flows.map(
    () => new FlowStats(durationNs, scenario.trace.maxPoints, fromNs, durationNs, initialWindowBytes(tcp.initialCwndSegments, scenario.mssBytes, tcp.initialWindow), series),
  );
  const receivers: TcpReceiver[] = [];
  const senders = createSenders(scenario, sim, net, new StatsObserver(stats, sim), new InvariantMonitor(receivers, net), options.makeCc);
  receivers.push(...createReceivers(scenario, sim, net));
  const completedNs = new Float64Array(scenario.flows.length).fill(NaN);
  net.setEndpoints(new PacketEndpoints(scenario, senders, receivers, completedNs, sim));
  const { queueTrace, queueDelay } = traceQueue(scenario, sim, net, series);
  const model: PacketModel = { sim, net, senders, receivers, stats, queueTrace, queueDelay, completedNs, atMeasureStart: [] };
  dispatchEvents(scenario, model);
  return model;
}

/**
 * The traced queue's length over time and its packets' queueing delays (Dumbbell.tracedQueueLink);
 * without `series` (RunOptions.record 'summary') neither is fed: empty series, no delay summaries.
 */
function traceQueue(scenario: Scenario, sim: Simulator, net: Dumbbell, series: boolean): { queueTrace: TraceRecorder; queueDelay: QueueDelayStats } {
  const durationNs = secondsToNs(scenario.durationS);
  const queueTrace = new TraceRecorder(durationNs, scenario.trace.maxPoints);
  const queueDelay = new QueueDelayStats(scenario.flows.length, secondsToNs(scenario.measureFromS), durationNs, scenario.trace.maxPoints);
  if (!series) return { queueTrace, queueDelay };
  queueTrace.record(0, 0);
  net.onTracedQueue = (q) => queueTrace.recordNow(sim, q);
  net.onTracedSojourn = (flow, sojournNs) => queueDelay.record(flow, sim, sojournNs);
  return { queueTrace, queueDelay };
}

/**
 * Every event kind to its handler, and the scenario's own events scheduled: each flow's start and
 * stop, the measurement snapshot (after everything else scheduled at that instant), the bottleneck's
 * rate changes. The snapshot is taken once now too (a run measured from 0).
 */
function dispatchEvents(scenario: Scenario, model: PacketModel): void {
  const { sim } = model;
  sim.setDispatch(new PacketEvents(model, scenario));
  const rateChanges = scenario.bottleneck.rateChanges ?? [];
  scenario.flows.forEach((f, i) => {
    sim.scheduleAt(secondsToNs(f.startS), EV_APP_START, i);
    if (f.stopS !== null) sim.scheduleAt(secondsToNs(f.stopS), EV_APP_STOP, i);
  });
  const fromNs = secondsToNs(scenario.measureFromS);
  if (fromNs > 0) sim.scheduleAt(fromNs, EV_MEASURE, 0);
  rateChanges.forEach((c, i) => sim.scheduleAt(secondsToNs(c.atS), EV_RATE_CHANGE, i));
}

/**
 * Runs a scenario on the packet-level engine. Synchronous and deterministic: the same scenario
 * (seed included) gives byte-identical JSON except `stats.wallS`.
 */
export function runPacket(scenario: Scenario, options: RunOptions = {}): RunResult {
  const t0 = performance.now();
  const model = buildPacketModel(scenario, options);
  model.sim.run(secondsToNs(scenario.durationS));
  checkFlowAccounting(model.senders, model.receivers, model.net);
  checkQueueAccounting(model.net);
  return buildResult(scenario, model, (performance.now() - t0) / 1000);
}
