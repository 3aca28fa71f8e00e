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
  constructor(
    private readonly receivers: readonly TcpReceiver[],
    private readonly net: Dumbbell,
  ) {}

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

  retransmits(s: TcpSender, seq: number, len: number): void {
    if (s.sb.isSacked(seq)) {
      throw new InvariantError(`flow ${s.flow}: retransmission at ${s.nowS} s of SACKed segment ${seq}`);
    }
    if (!s.config.sack || s.tcb.caState === 'loss') return;
    const c = this.net.counters[s.flow]!;
    if (c.ackQueueDrops + c.ackRandomDrops > 0) return;
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
}
