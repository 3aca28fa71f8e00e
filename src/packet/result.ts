import { secondsToNs } from '../engine/simulator.js';
import type { DropCounters, FlowSummary, QueueDisciplineStats, RunResult } from '../result/types.js';
import type { Scenario } from '../scenario/types.js';
import type { PacketModel } from './model.js';

/**
 * Assembles the RunResult of a finished packet run. Goodput counts bytes delivered in order to the
 * receiving application during [measureFromS, durationS]; throughput counts payload bytes the sender
 * put on the wire (retransmissions included) in the same window; loss rate is data segments lost
 * (queue or random) over data segments sent, over the whole run.
 */
export function buildResult(scenario: Scenario, m: PacketModel, wallS: number): RunResult {
  const intervalS = scenario.durationS - scenario.measureFromS;
  const mss = scenario.mssBytes;
  const drops: DropCounters = { queue: 0, random: 0, ackRandom: 0, ackQueue: 0 };
  let lost = 0;
  let sentSegs = 0;
  const flows = m.senders.map((s, i) => {
    const r = m.receivers[i]!;
    const c = m.net.counters[i]!;
    const at = m.atMeasureStart[i]!;
    const delivered = r.deliveredBytes - at.deliveredBytes;
    const sent = s.bytesSent - at.sentBytes;
    const flowLost = c.queueDropSegments + c.randomDropSegments;
    drops.queue += c.queueDropSegments;
    drops.random += c.randomDropSegments;
    drops.ackQueue += c.ackQueueDrops;
    drops.ackRandom += c.ackRandomDrops;
    lost += flowLost;
    sentSegs += s.segmentsSent;
    const meanCwndBytes = m.stats[i]!.meanCwndBytes();
    const summary: FlowSummary = {
      flowId: i,
      goodputBps: (delivered * 8) / intervalS,
      throughputBps: (sent * 8) / intervalS,
      meanCwndBytes,
      meanCwndSegments: meanCwndBytes / mss,
      bytesDelivered: delivered,
      bytesSent: sent,
      retransmits: s.retransmits,
      timeouts: s.timeouts,
      fastRecoveries: s.fastRecoveries,
      lossRate: s.segmentsSent > 0 ? flowLost / s.segmentsSent : 0,
    };
    const queueDelay = m.queueDelay.flowSummary(i);
    if (queueDelay) summary.queueDelay = queueDelay;
    const bytes = scenario.flows[i]!.bytes;
    if (bytes !== null) {
      const done = m.completedNs[i]!;
      summary.transfer = { bytes, completionS: Number.isNaN(done) ? null : (done - secondsToNs(scenario.flows[i]!.startS)) / 1e9 };
    }
    if (s.ecn !== null) summary.ecn = { marks: c.ceDeliveredSegments + c.ceDroppedSegments, eceAcks: s.ecn.eceAcks, reductions: s.ecn.reductions, cwrSent: s.ecn.cwrSent };
    return { summary, trace: m.stats[i]!.trace() };
  });
  const sum = (f: (x: FlowSummary) => number): number => flows.reduce((a, x) => a + f(x.summary), 0);
  const meanCwndBytes = sum((x) => x.meanCwndBytes) / flows.length;
  const delay = m.queueDelay.summary();
  return {
    engine: 'packet',
    variant: scenario.variant,
    scenario: scenario.name,
    spec: scenario,
    durationS: scenario.durationS,
    mssBytes: mss,
    status: 'ok',
    summary: {
      goodputBps: sum((x) => x.goodputBps),
      throughputBps: sum((x) => x.throughputBps),
      meanCwndBytes,
      meanCwndSegments: meanCwndBytes / mss,
      retransmits: sum((x) => x.retransmits),
      timeouts: sum((x) => x.timeouts),
      fastRecoveries: sum((x) => x.fastRecoveries),
      drops,
      lossRate: sentSegs > 0 ? lost / sentSegs : 0,
      ...(scenario.tcp.ecn === true ? { ecn: { marks: sum((x) => x.ecn?.marks ?? 0), reductions: sum((x) => x.ecn?.reductions ?? 0) } } : {}),
    },
    flows,
    queue: {
      packets: m.queueTrace.toSeries(),
      link: m.net.tracedQueueName,
      discipline: tracedDiscipline(m),
      delayS: m.queueDelay.toSeries(),
      ...(delay ? { delay } : {}),
    },
    stats: { wallS, events: m.sim.events },
  };
}

/** The traced queue's discipline and its drops and marks by reason. */
function tracedDiscipline(m: PacketModel): QueueDisciplineStats {
  const qdisc = m.net.links[m.net.tracedQueueLink]!.qdisc;
  return { kind: qdisc.kind, ...qdisc.stats.toJSON() };
}
