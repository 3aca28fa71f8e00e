import type { Dumbbell } from '../net/dumbbell.js';
import type { TcpReceiver } from '../tcp/receiver.js';
import type { SenderAudit, TcpSender } from '../tcp/sender.js';

/** A loss-recovery rule broken: always an engine bug, never bad input. */
export class InvariantError extends Error {
  constructor(message: string) {
    super(`packet engine invariant broken: ${message}`);
    this.name = 'InvariantError';
  }
}

/**
 * Checks, on every run, that the sender acts only on evidence it has (the recovery loop that once
 * hid behind aggregate numbers broke all three):
 * - a fast recovery starts only after DupThresh duplicate ACKs (SACK off) or once RFC 6675 IsLost
 *   holds for the head (SACK on);
 * - no segment the scoreboard holds as SACKed is retransmitted;
 * - with SACK, outside the timeout's go-back-N and while no ACK of the flow has been lost (so the
 *   sender's SACK information is complete), no segment the receiver already holds is retransmitted.
 * Conservation and window bounds are checked by {@link checkFlowAccounting} at the end of a run.
 */
export class InvariantMonitor implements SenderAudit {
  /** Per flow, indexed by flow number (a Map lookup per paced departure was measurable at 100 flows). */
  private readonly pacing: (PacingWindow | undefined)[] = [];

  constructor(
    private readonly receivers: readonly TcpReceiver[],
    private readonly net: Dumbbell,
  ) {}

  /**
   * RFC 3168 6.1.2: an ECN-Echo cuts the window at most once per window of data: the ACK must
   * acknowledge data sent after the previous cut of any cause, and no cut may be under way.
   */
  ecnReduces(s: TcpSender, ackNo: number): void {
    const state = s.tcb.caState;
    if (ackNo <= s.ecn!.highSeq || (state !== 'open' && state !== 'disorder')) {
      throw new InvariantError(`flow ${s.flow}: ECN window cut at ${s.nowS} s by an ACK of ${ackNo} within the window cut at SND.NXT ${s.ecn!.highSeq} (state ${state})`);
    }
  }

  recoveryStarts(s: TcpSender): void {
    const thresh = s.config.dupAckThreshold;
    if (s.recovery.usesSack) {
      if (!s.sb.isLost(s.sb.una)) {
        throw new InvariantError(`flow ${s.flow}: recovery started at ${s.nowS} s before IsLost(SND.UNA) held`);
      }
    } else if (s.dupAcks < thresh) {
      throw new InvariantError(`flow ${s.flow}: recovery started at ${s.nowS} s after ${s.dupAcks} duplicate ACKs (DupThresh ${thresh})`);
    }
  }

  /** Pacing never sends faster than the pacing rate over any window of 10 segments. */
  pacedDeparture(s: TcpSender, nowNs: number, len: number, rateBps: number): void {
    let w = this.pacing[s.flow];
    if (w === undefined) this.pacing[s.flow] = w = new PacingWindow();
    const problem = w.depart(nowNs, rateBps === Infinity ? 0 : Math.ceil((len * 8e9) / rateBps));
    if (problem !== null) throw new InvariantError(`flow ${s.flow}: at ${s.nowS} s ${problem}`);
  }

  retransmits(s: TcpSender, seq: number, len: number, rescue: boolean): void {
    if (s.sb.isSacked(seq)) {
      throw new InvariantError(`flow ${s.flow}: retransmission at ${s.nowS} s of SACKed segment ${seq}`);
    }
    if (!s.config.sack || s.tcb.caState === 'loss') return;
    const c = this.net.counters[s.flow]!;
    if (c.ackQueueDrops + c.ackRandomDrops > 0) return;
    // RFC 6675 NextSeg rule 4, the rescue retransmission (the one retransmission the scoreboard does
    // not mark first, src/tcp/send-loop.ts): the highest unSACKed segment, sent while its fate is
    // unknown, so it may be spurious by design; at the tail of a finite transfer it is the last
    // segment, which has often arrived with its SACK still on the way. It may also be a segment an
    // earlier retransmission already repaired (still marked retransmitted, its ACK on the way: bbr
    // short flows on a 4-packet buffer, the aqm recipe), so the flag, not the mark, says rescue.
    if (rescue || !s.sb.isRetransmitted(seq)) return;
    // ns-3's fast retransmit resends SND.UNA whether or not it was resent already (sackRecoveryStart
    // 'dupAck', TcpSocketBase::EnterRecovery): spurious by design when that copy has arrived.
    if (s.config.sackRecoveryStart === 'dupAck' && seq === s.sb.una) return;
    if (this.receivers[s.flow]!.holds(seq) && this.receivers[s.flow]!.holds(seq + len - 1)) {
      throw new InvariantError(`flow ${s.flow}: retransmission at ${s.nowS} s of segment ${seq} the receiver holds (state ${s.tcb.caState})`);
    }
  }
}

/**
 * End-of-run accounting per flow: bytes sent = bytes that reached the receiver (duplicates
 * included) + bytes dropped + bytes still in the network; the scoreboard's running counters equal
 * a recount; pipe and cwnd within bounds.
 */
export function checkFlowAccounting(senders: readonly TcpSender[], receivers: readonly TcpReceiver[], net: Dumbbell): void {
  senders.forEach((s, i) => {
    const r = receivers[i]!;
    const c = net.counters[i]!;
    const accounted = r.arrivedBytes + c.queueDropBytes + c.randomDropBytes + c.dataBytesInNetwork;
    if (s.bytesSent !== accounted) throw new InvariantError(`flow ${i}: ${s.bytesSent} bytes sent but ${accounted} accounted for`);
    if (s.sndUna > r.rcvNxt || r.rcvNxt > s.highTx) throw new InvariantError(`flow ${i}: SND.UNA ${s.sndUna}, RCV.NXT ${r.rcvNxt}, SND.MAX ${s.highTx} out of order`);
    const counts = s.sb.recount();
    if (counts.sackedBytes !== s.sb.sackedBytes || counts.lostBytes !== s.sb.lostBytes || counts.retransBytes !== s.sb.retransBytes) {
      throw new InvariantError(`flow ${i}: scoreboard counters ${JSON.stringify([s.sb.sackedBytes, s.sb.lostBytes, s.sb.retransBytes])} differ from a recount ${JSON.stringify(counts)}`);
    }
    const pipe = s.sb.pipeBytes;
    if (pipe < 0 || pipe > 2 * s.sb.outstandingBytes) throw new InvariantError(`flow ${i}: pipe ${pipe} outside [0, 2 x outstanding]`);
    if (!(s.tcb.cwndBytes >= s.mssBytes) || !Number.isFinite(s.tcb.cwndBytes)) throw new InvariantError(`flow ${i}: cwnd ${s.tcb.cwndBytes} below one segment or not finite`);
  });
  checkMarkAccounting(senders, receivers, net);
}

/**
 * CE marks (RFC 3168): a flow without ECN sends Not-ECT, so none of its segments may carry CE;
 * with ECN, the receiver saw exactly the CE segments the network delivered; and no more marked
 * segments left the network than the queues marked (the rest are still on their way).
 */
function checkMarkAccounting(senders: readonly TcpSender[], receivers: readonly TcpReceiver[], net: Dumbbell): void {
  let leftMarked = 0;
  senders.forEach((s, i) => {
    const c = net.counters[i]!;
    const ce = receivers[i]!.ecn?.ceArrivals ?? 0;
    if (s.ecn === null && c.ceDeliveredSegments + c.ceDroppedSegments > 0) throw new InvariantError(`flow ${i}: without ECN, ${c.ceDeliveredSegments + c.ceDroppedSegments} segments carried CE`);
    if (s.ecn !== null && ce !== c.ceDeliveredSegments) throw new InvariantError(`flow ${i}: the receiver saw ${ce} CE segments, the network delivered ${c.ceDeliveredSegments}`);
    leftMarked += c.ceDeliveredSegments + c.ceDroppedSegments;
  });
  const marked = net.links.reduce((a, l) => a + l.qdisc.stats.marks.reduce((x, y) => x + y, 0), 0);
  if (leftMarked > marked) throw new InvariantError(`${leftMarked} CE segments left the network but the queues marked ${marked}`);
}

/** Segments per window of the pacing invariant. */
const PACING_WINDOW = 10;

/**
 * The last departures of one paced flow: segment i may leave no sooner than segment i - 1 plus its
 * slot (len x 8 / rate at its departure), so any 10 consecutive departures span at least the slots
 * of the first 9. The slots' sum over the last 9 departures is kept running: slots are whole ns (or
 * 0), so the sum is exact and equals adding the 9 up each time.
 */
class PacingWindow {
  private readonly atNs = new Float64Array(PACING_WINDOW);
  private readonly slotNs = new Float64Array(PACING_WINDOW);
  private count = 0;
  /** Sum of the slots of the last PACING_WINDOW - 1 departures recorded. */
  private lastSlotsNs = 0;

  /** Records a departure; returns what is wrong, or null. */
  depart(nowNs: number, slotNs: number): string | null {
    const k = this.count % PACING_WINDOW;
    let problem: string | null = null;
    if (this.count >= PACING_WINDOW - 1) {
      // The oldest of the 10 (this one included) is PACING_WINDOW - 1 departures back, slot k + 1.
      const first = k === PACING_WINDOW - 1 ? 0 : k + 1;
      const needNs = this.lastSlotsNs;
      const spanNs = nowNs - this.atNs[first]!;
      if (spanNs < needNs) problem = `10 paced segments left within ${spanNs} ns, their pacing slots need ${needNs} ns`;
      // The oldest leaves the running sum: the next check's 9 start one later.
      this.lastSlotsNs -= this.slotNs[first]!;
    }
    this.atNs[k] = nowNs;
    this.slotNs[k] = slotNs;
    this.lastSlotsNs += slotNs;
    this.count++;
    return problem;
  }
}

/**
 * End-of-run accounting per link and discipline (ns-3 QueueDisc::Stats' identities): packets offered
 * = dropped + sent + still held; the discipline's drops by reason add up to the link's drops; CE
 * marks fall on packets it let through (so at most sent + held).
 */
export function checkQueueAccounting(net: Dumbbell): void {
  for (const link of net.links) {
    const held = link.holdsPackets ? link.qdisc.backlogPackets : 0;
    if (link.offered !== link.dropped + link.sent + held) {
      throw new InvariantError(`${link.name}: ${link.offered} packets offered but ${link.dropped} dropped + ${link.sent} sent + ${held} held`);
    }
    const total = (xs: number[]): number => xs.reduce((a, x) => a + x, 0);
    const drops = total(link.qdisc.stats.drops);
    if (drops !== link.dropped) throw new InvariantError(`${link.name}: ${link.qdisc.kind} counted ${drops} drops by reason, the link ${link.dropped}`);
    const marks = total(link.qdisc.stats.marks);
    if (marks > link.sent + held) throw new InvariantError(`${link.name}: ${marks} CE marks on ${link.sent + held} packets let through`);
  }
}
