import { createCongestionControl, getCongestionControl } from '../cc/registry.js';
import type { CongestionControl } from '../cc/types.js';
import { Simulator, secondsToNs } from '../engine/simulator.js';
import { LazyTimer } from '../engine/timer.js';
import { TraceRecorder } from '../engine/trace.js';
import { Dumbbell } from '../net/dumbbell.js';
import type { RunResult } from '../result/types.js';
import { flowCc } from '../scenario/flowCc.js';
import type { Scenario } from '../scenario/types.js';
import type { EcnEchoMode } from '../tcp/ecn.js';
import { TcpReceiver } from '../tcp/receiver.js';
import { initialWindowBytes, TcpSender } from '../tcp/sender.js';
import { EV_APP_START, EV_APP_STOP, EV_DELACK, EV_MEASURE, EV_PACE, EV_RATE_CHANGE, EV_RTO, makeDispatch } from './events.js';
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
}

/** Flow i's own algorithm: its variant and knobs (src/scenario/flowCc.ts resolves the defaults). */
function flowCongestionControl(scenario: Scenario, i: number): CongestionControl {
  const { variant, ccParams } = flowCc(scenario, i);
  return createCongestionControl(variant, ccParams, { seed: scenario.seed, flow: i });
}

/** How flow i's receiver echoes CE: null without ECN, DCTCP's exact echo for an algorithm that needs it (RFC 8257 3.2). */
function ecnEcho(scenario: Scenario, i: number): EcnEchoMode | null {
  if (scenario.tcp.ecn !== true) return null;
  return getCongestionControl(flowCc(scenario, i).variant).needsEcn === true ? 'dctcp' : 'classic';
}

/**
 * The network's data delivery to the receivers. With a finite transfer in the scenario it also
 * notes when each finite flow's last byte arrives in order (its completion time); bulk-only
 * scenarios keep the bare call.
 */
function deliverData(scenario: Scenario, receivers: TcpReceiver[], completedNs: Float64Array, clock: { readonly nowNs: number }) {
  const totals = scenario.flows.map((f) => f.bytes ?? Infinity);
  if (totals.every((b) => b === Infinity)) {
    return (flow: number, seq: number, len: number, ts: number, ecnBits: number) => receivers[flow]!.onData(seq, len, ts, ecnBits);
  }
  return (flow: number, seq: number, len: number, ts: number, ecnBits: number) => {
    const r = receivers[flow]!;
    r.onData(seq, len, ts, ecnBits);
    if (r.deliveredBytes >= totals[flow]! && Number.isNaN(completedNs[flow]!)) completedNs[flow] = clock.nowNs;
  };
}

/**
 * Builds the packet model of a scenario without running it: the dumbbell, one TCP sender and
 * receiver per flow, and the scheduled application start/stop events.
 */
export function buildPacketModel(scenario: Scenario, options: RunOptions = {}): PacketModel {
  checkEngineInput(scenario);
  const sim = new Simulator(() => undefined);
  const net = new Dumbbell(sim, scenario);
  const durationNs = secondsToNs(scenario.durationS);
  const fromNs = secondsToNs(scenario.measureFromS);
  const tcp = scenario.tcp;
  const stats = scenario.flows.map(
    () => new FlowStats(durationNs, scenario.trace.maxPoints, fromNs, durationNs, initialWindowBytes(tcp.initialCwndSegments, scenario.mssBytes, tcp.initialWindow)),
  );
  const observer = new StatsObserver(stats, sim);
  const receivers: TcpReceiver[] = [];
  const monitor = new InvariantMonitor(receivers, net);
  const senders = scenario.flows.map((_, i) => {
    const cc = options.makeCc ? options.makeCc(i) : flowCongestionControl(scenario, i);
    // Pacing: the scenario's choice (off unless given), forced on by an algorithm that needs it (BBR).
    const pacing = tcp.pacing === true || cc.needsPacing === true;
    return new TcpSender(
        i,
        sim,
        cc,
        net,
        {
          mssBytes: scenario.mssBytes,
          initialCwndSegments: tcp.initialCwndSegments,
          initialSsthreshBytes: tcp.initialSsthreshBytes,
          minRtoS: tcp.minRtoS,
          maxRtoS: tcp.maxRtoS,
          clockGranularityS: tcp.clockGranularityS,
          dupAckThreshold: tcp.dupAckThreshold,
          // ns-3's example sets SndBufSize = RcvBufSize (2 MB); cclab's TcpSpec has one buffer size.
          sndBufBytes: tcp.rcvBufBytes,
          initialRwndBytes: tcp.rcvBufBytes,
          sack: tcp.sack,
          recovery: tcp.recovery,
          initialWindow: tcp.initialWindow,
          rtoBackoffReset: tcp.rtoBackoffReset,
          sackSsthreshInput: tcp.sackSsthreshInput,
          recoverCheck: tcp.recoverCheck,
          rescueRetransmission: tcp.rescueRetransmission,
          sackPartialAckTimer: tcp.sackPartialAckTimer,
          pacing,
          ecn: tcp.ecn === true,
        },
        new LazyTimer(sim, EV_RTO, i),
        observer,
        monitor,
        pacing ? new LazyTimer(sim, EV_PACE, i) : null,
      );
  });
  const delAckNs = secondsToNs(tcp.delAckTimeoutS);
  scenario.flows.forEach((_, i) => {
    const cfg = { delAckCount: tcp.delAckCount, rcvBufBytes: tcp.rcvBufBytes, sack: tcp.sack, ecn: ecnEcho(scenario, i) };
    receivers.push(new TcpReceiver(i, net, cfg, new LazyTimer(sim, EV_DELACK, i), delAckNs, sim));
  });
  const completedNs = new Float64Array(scenario.flows.length).fill(NaN);
  net.setEndpoints({
    deliverData: deliverData(scenario, receivers, completedNs, sim),
    deliverAck: (flow, ack, ts, rwnd, n, blocks, ece) => senders[flow]!.onAck(ack, ts, rwnd, n, blocks, ece),
  });
  const queueTrace = new TraceRecorder(durationNs, scenario.trace.maxPoints);
  queueTrace.record(0, 0);
  net.onTracedQueue = (q) => queueTrace.record(sim.nowNs, q);
  const queueDelay = new QueueDelayStats(scenario.flows.length, fromNs, durationNs, scenario.trace.maxPoints);
  net.onTracedSojourn = (flow, sojournNs) => queueDelay.record(flow, sim.nowNs, sojournNs);
  const model: PacketModel = { sim, net, senders, receivers, stats, queueTrace, queueDelay, completedNs, atMeasureStart: [] };
  const snapshot = (): void => {
    model.atMeasureStart = senders.map((s, i) => ({ deliveredBytes: receivers[i]!.deliveredBytes, sentBytes: s.bytesSent }));
  };
  snapshot();
  const rateChanges = scenario.bottleneck.rateChanges ?? [];
  sim.setDispatch(
    makeDispatch({
      arrive: (p) => net.onArrive(p),
      rto: (flow) => senders[flow]!.onRtoEvent(),
      delAck: (flow) => receivers[flow]!.onDelAckTimer(),
      appStart: (flow) => senders[flow]!.startApp(scenario.flows[flow]!.bytes),
      appStop: (flow) => senders[flow]!.stopApp(),
      measure: snapshot,
      txEnd: (link) => net.onTxEnd(link),
      pace: (flow) => senders[flow]!.onPaceEvent(),
      rateChange: (i) => net.links[net.bottleneckForward]!.setBandwidth(rateChanges[i]!.bandwidthBps),
    }),
  );
  scenario.flows.forEach((f, i) => {
    sim.scheduleAt(secondsToNs(f.startS), EV_APP_START, i);
    if (f.stopS !== null) sim.scheduleAt(secondsToNs(f.stopS), EV_APP_STOP, i);
  });
  // Snapshot after everything else scheduled at that instant.
  if (fromNs > 0) sim.scheduleAt(fromNs, EV_MEASURE, 0);
  rateChanges.forEach((c, i) => sim.scheduleAt(secondsToNs(c.atS), EV_RATE_CHANGE, i));
  return model;
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
