import type { LinkSpec, Scenario } from './types.js';

/**
 * Path geometry of a Scenario, the one home of "which link is the tightest", RTTs, BDPs and fair
 * shares. The engines (net, fluid), the closed forms, the sweep and the reports all read them here.
 *
 * Flow i's data crosses [access_i, bottleneck, receiverAccess_i] (an ideal receiver access link,
 * `null`, is left out); its ACKs cross the same links backwards. Packets on the wire are MSS + header
 * bytes, ACKs header bytes.
 */

export type LinkRole = 'access' | 'bottleneck' | 'receiverAccess';

/** One forward link of a path. The bottleneck's queue is its queue discipline's limit. */
export interface PathLink extends LinkSpec {
  role: LinkRole;
}

export interface FlowPath {
  flow: number;
  /** Forward links in the order data crosses them. */
  links: PathLink[];
  /** Index in `links` of the slowest link (ties go to the shared bottleneck, where RED acts). */
  tightestIndex: number;
  tightest: PathLink;
  /** 2 x the sum of the links' one-way delays. */
  propagationRttS: number;
  /** The smallest RTT a packet can see: propagation plus one data packet and one ACK serialised on every link. */
  baseRttS: number;
  /** Bandwidth-delay product, full packets: the tightest link's packet rate x the propagation RTT (not rounded). */
  bdpPackets: number;
  /** Max-min fair share of the wire rate, bit/s (see {@link fairSharesBps}). */
  fairShareBps: number;
}

/** Bits on the wire per full segment. */
export function packetBits(s: Pick<Scenario, 'mssBytes' | 'headerBytes'>): number {
  return 8 * (s.mssBytes + s.headerBytes);
}

/** Bits on the wire per pure ACK. */
export function ackBits(s: Pick<Scenario, 'headerBytes'>): number {
  return 8 * s.headerBytes;
}

/** Share of the wire rate that is payload: MSS / (MSS + headers). */
export function payloadFraction(s: Pick<Scenario, 'mssBytes' | 'headerBytes'>): number {
  return s.mssBytes / (s.mssBytes + s.headerBytes);
}

/** Flow i's forward links in order. */
export function pathLinks(s: Pick<Scenario, 'bottleneck' | 'flows'>, flow = 0): PathLink[] {
  const f = s.flows[flow]!;
  const b = s.bottleneck;
  const links: PathLink[] = [
    { role: 'access', ...f.access },
    { role: 'bottleneck', bandwidthBps: b.bandwidthBps, delayS: b.delayS, queuePackets: b.queue.limitPackets },
  ];
  if (f.receiverAccess) links.push({ role: 'receiverAccess', ...f.receiverAccess });
  return links;
}

/** 2 x the one-way delays of flow i's links (no queueing, no serialisation). */
export function propagationRttS(s: Pick<Scenario, 'bottleneck' | 'flows'>, flow = 0): number {
  const f = s.flows[flow]!;
  return 2 * (f.access.delayS + s.bottleneck.delayS + (f.receiverAccess?.delayS ?? 0));
}

/** Propagation RTT plus one data packet and one ACK serialised on each of flow i's links (the fluid models' Tp). */
export function baseRttS(s: Scenario, flow = 0): number {
  return emptyPathRttS(s, flow, packetBits(s) + ackBits(s));
}

/**
 * The RTT of flow i's handshake: propagation plus a header-only packet (SYN, then SYN-ACK) serialised
 * on each of its links each way, on empty queues. The smallest RTT the connection can see: a data
 * segment's sample also carries its payload's serialisation and, under delayed ACKs, its partner's.
 */
export function handshakeRttS(s: Scenario, flow = 0): number {
  return emptyPathRttS(s, flow, 2 * ackBits(s));
}

/** Propagation RTT plus `bits` (a packet each way) serialised on each of flow i's links, on empty queues. */
function emptyPathRttS(s: Scenario, flow: number, bits: number): number {
  let serialisationS = 0;
  for (const l of pathLinks(s, flow)) serialisationS += bits / l.bandwidthBps;
  return propagationRttS(s, flow) + serialisationS;
}

function tightestOf(links: readonly PathLink[]): number {
  let k = links.findIndex((l) => l.role === 'bottleneck');
  links.forEach((l, i) => {
    if (l.bandwidthBps < links[k]!.bandwidthBps) k = i;
  });
  return k;
}

/**
 * Max-min fair shares of the wire rate, bit/s, one per flow: every flow is capped by its own access
 * links and all share the bottleneck (water-filling: flows whose own cap is below an equal split keep
 * it, the rest split what is left). They sum to what the path can carry in total.
 */
export function fairSharesBps(s: Pick<Scenario, 'bottleneck' | 'flows'>): number[] {
  const caps = s.flows.map((f) => Math.min(f.access.bandwidthBps, f.receiverAccess?.bandwidthBps ?? Infinity));
  const order = caps.map((_, i) => i).sort((i, j) => caps[i]! - caps[j]!);
  const share = new Array<number>(caps.length).fill(0);
  let left = s.bottleneck.bandwidthBps;
  order.forEach((i, k) => {
    const equal = left / (order.length - k);
    share[i] = Math.min(caps[i]!, equal);
    left -= share[i]!;
  });
  return share;
}

/** Flow i's path: links, tightest link, RTTs, BDP and fair share. */
export function flowPath(s: Scenario, flow = 0): FlowPath {
  const links = pathLinks(s, flow);
  const tightestIndex = tightestOf(links);
  const tightest = links[tightestIndex]!;
  const propagation = propagationRttS(s, flow);
  return {
    flow,
    links,
    tightestIndex,
    tightest,
    propagationRttS: propagation,
    baseRttS: baseRttS(s, flow),
    bdpPackets: (tightest.bandwidthBps * propagation) / packetBits(s),
    fairShareBps: fairSharesBps(s)[flow]!,
  };
}

/** Bandwidth-delay product of flow i's path in full packets (tightest link x propagation RTT; not rounded). */
export function bdpPackets(s: Scenario, flow = 0): number {
  return flowPath(s, flow).bdpPackets;
}

/** Flow i's max-min fair share of goodput, bit/s of payload. */
export function fairSharePayloadBps(s: Scenario, flow = 0): number {
  return fairSharesBps(s)[flow]! * payloadFraction(s);
}

/** Payload rate the path carries in total, bit/s: the sum of the fair shares, less headers. */
export function pathPayloadCapacityBps(s: Scenario): number {
  return fairSharesBps(s).reduce((a, x) => a + x, 0) * payloadFraction(s);
}

/**
 * The one queue a fluid model integrates: the tightest of the shared bottleneck, the N sender access
 * links together (rate and buffer summed) and the N receiver access links together. Aggregating N
 * identical access queues is exact for symmetric flows under the mean-field model (each flow sees its
 * own C_a and B_a) and an approximation for asymmetric ones. Ties go to the bottleneck (RED acts there).
 */
export function sharedQueue(s: Pick<Scenario, 'bottleneck' | 'flows'>): { role: LinkRole; bandwidthBps: number; queuePackets: number } {
  const b = s.bottleneck;
  const candidates: { role: LinkRole; bandwidthBps: number; queuePackets: number }[] = [
    { role: 'bottleneck', bandwidthBps: b.bandwidthBps, queuePackets: b.queue.limitPackets },
  ];
  const sum = (role: 'access' | 'receiverAccess'): void => {
    let bandwidthBps = 0;
    let queuePackets = 0;
    for (const f of s.flows) {
      const l = role === 'access' ? f.access : f.receiverAccess;
      if (!l) return; // an ideal link never limits
      bandwidthBps += l.bandwidthBps;
      queuePackets += l.queuePackets;
    }
    candidates.push({ role, bandwidthBps, queuePackets });
  };
  sum('access');
  sum('receiverAccess');
  return candidates.reduce((a, c) => (c.bandwidthBps < a.bandwidthBps * (1 - 1e-12) ? c : a));
}
