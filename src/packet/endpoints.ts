import { createCongestionControl, getCongestionControl } from '../cc/registry.js';
import type { CongestionControl } from '../cc/types.js';
import type { Simulator } from '../engine/simulator.js';
import { secondsToNs } from '../engine/simulator.js';
import { LazyTimer } from '../engine/timer.js';
import type { Dumbbell, Endpoints } from '../net/dumbbell.js';
import { flowCc } from '../scenario/flowCc.js';
import { handshakeRttS } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import type { EcnEchoMode } from '../tcp/ecn.js';
import { TcpReceiver } from '../tcp/receiver.js';
import type { SenderAudit, SenderConfig, SenderObserver } from '../tcp/sender-config.js';
import { TcpSender } from '../tcp/sender.js';
import { EV_DELACK, EV_PACE, EV_RTO } from './events.js';

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

/** A sender's configuration: the scenario's TCP settings, and whether the flow is paced. */
function senderConfig(scenario: Scenario, flow: number, pacing: boolean): SenderConfig {
  const tcp = scenario.tcp;
  return {
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
    sackAdvanceAck: tcp.sackAdvanceAck,
    rttSamples: tcp.rttSamples,
    sackRecoveryStart: tcp.sackRecoveryStart,
    ...(tcp.handshakeRtt === true && { handshakeRttS: handshakeRttS(scenario, flow) }),
    nagle: tcp.nagle,
    pacing,
    ecn: tcp.ecn === true,
  };
}

/**
 * One TCP sender per flow, in flow order (each: its algorithm, `makeCc`'s when given, then its
 * retransmission timer and, when paced, its pacing timer), sending into the network.
 */
export function createSenders(
  scenario: Scenario,
  sim: Simulator,
  net: Dumbbell,
  observer: SenderObserver,
  audit: SenderAudit,
  makeCc: ((flow: number) => CongestionControl) | undefined,
): TcpSender[] {
  return scenario.flows.map((_, i) => {
    const cc = makeCc ? makeCc(i) : flowCongestionControl(scenario, i);
    // Pacing: the scenario's choice (off unless given), forced on by an algorithm that needs it (BBR).
    const pacing = scenario.tcp.pacing === true || cc.needsPacing === true;
    const config = senderConfig(scenario, i, pacing);
    return new TcpSender(i, sim, cc, net, config, new LazyTimer(sim, EV_RTO, i), observer, audit, pacing ? new LazyTimer(sim, EV_PACE, i) : null);
  });
}

/** One TCP receiver per flow, in flow order, each with its delayed-ACK timer, ACKing into the network. */
export function createReceivers(scenario: Scenario, sim: Simulator, net: Dumbbell): TcpReceiver[] {
  const tcp = scenario.tcp;
  const delAckNs = secondsToNs(tcp.delAckTimeoutS);
  return scenario.flows.map((_, i) => {
    const cfg = { delAckCount: tcp.delAckCount, rcvBufBytes: tcp.rcvBufBytes, sack: tcp.sack, ecn: ecnEcho(scenario, i) };
    return new TcpReceiver(i, net, cfg, new LazyTimer(sim, EV_DELACK, i), delAckNs, sim);
  });
}

/**
 * The network's deliveries to the flows' endpoints: data to the receivers, ACKs to the senders. With
 * a finite transfer in the scenario it also notes when each finite flow's last byte arrives in order
 * (its completion time). A class rather than closures made per model, for the same reason as
 * PacketEvents (src/packet/events.ts): one call target in every run of a process.
 */
export class PacketEndpoints implements Endpoints {
  /** Per flow, bytes of its finite transfer (Infinity: bulk); null when every flow is bulk. */
  private readonly totals: number[] | null;

  constructor(
    scenario: Scenario,
    private readonly senders: TcpSender[],
    private readonly receivers: TcpReceiver[],
    private readonly completedNs: Float64Array,
    private readonly clock: { readonly nowNs: number },
  ) {
    const totals = scenario.flows.map((f) => f.bytes ?? Infinity);
    this.totals = totals.every((b) => b === Infinity) ? null : totals;
  }

  deliverData(flow: number, seq: number, len: number, tsValNs: number, ecnBits: number): void {
    const r = this.receivers[flow]!;
    r.onData(seq, len, tsValNs, ecnBits);
    if (this.totals !== null && r.deliveredBytes >= this.totals[flow]! && Number.isNaN(this.completedNs[flow]!)) this.completedNs[flow] = this.clock.nowNs;
  }

  deliverAck(flow: number, ackNo: number, tsEcrNs: number, rwndBytes: number, sackCount: number, sackBlocks: Float64Array, ece: boolean): void {
    this.senders[flow]!.onAck(ackNo, tsEcrNs, rwndBytes, sackCount, sackBlocks, ece);
  }
}
