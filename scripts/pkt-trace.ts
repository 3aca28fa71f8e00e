/**
 * Packet-level trace of one cclab run of an ns-3 example cell, in the line format of the ns-3 trace
 * sinks used to study issue 21 (one event per line, times in ns, sequence numbers as ns-3's: data
 * starts at 1 after the SYN):
 *   T t seq len        the sender puts a data segment on the wire
 *   A t ack [s-e ...]  the sender receives an ACK (SACK blocks)
 *   R t seq len        the receiver gets a data segment
 *   K t ack [s-e ...]  the receiver sends an ACK
 *   X t gw|sink ...    the bottleneck's error model drops an ACK (gw) or a data segment (sink)
 *   C/S t bytes        cwnd / ssthresh after a change;  G t STATE (every transition);  O t rto_ns (on each timeout)
 *
 *   npx tsx scripts/pkt-trace.ts lossy westwood [--seed 1] [--profile ns3] [--duration 100] [--sack off] [--draws ns3.draws] [--own]
 * --own: the line as its own bottleneck (the preset `lossy`, not `ns3-lossy`).
 */
import { readFileSync } from 'node:fs';
import { buildPacketModel } from '../src/packet/run.js';
import { secondsToNs } from '../src/engine/simulator.js';
import { isPresetName, presetScenario } from '../src/scenario/presets.js';
import { presetProfile } from './scriptArgs.js';
import { DATA, F_FLOW, F_PAYLOAD_OR_RWND, F_RETX_OR_SACKS, F_SEQ, F_TYPE, ROW_SLOTS, SACK_SLOTS } from '../src/net/packets.js';
import type { Variant } from '../src/variants.js';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
}

const [preset, variant] = process.argv.slice(2);
const name = process.argv.includes('--own') ? preset : `ns3-${preset}`;
if (!isPresetName(name) || !variant) {
  console.error('usage: npx tsx scripts/pkt-trace.ts <normal|lfn|lossy> <variant> [--seed n] [--profile ns3|none] [--duration s] [--sack on|off]');
  process.exit(2);
}
const s = presetScenario(name, variant as Variant, { durationS: Number(flag('duration', '100')), seed: Number(flag('seed', '1')), profile: presetProfile(flag('profile', 'ns3')) });
if (flag('sack', 'on') === 'off') s.tcp.sack = false;
const m = buildPacketModel(s);
const snd = m.senders[0]!;
const rcv = m.receivers[0]!;
const out: string[] = [];
const now = (): number => m.sim.nowNs;
const blocks = (n: number, b: ArrayLike<number> | null): string => {
  let t = '';
  for (let i = 0; i < n && b !== null; i++) t += ` ${b[2 * i]! + 1}-${b[2 * i + 1]! + 1}`;
  return t;
};
let lastCwnd = -1;
let lastSs = -1;
const noteCc = (): void => {
  const c = snd.tcb.cwndBytes;
  const ss = Number.isFinite(snd.tcb.ssthreshBytes) ? snd.tcb.ssthreshBytes : 4294967295;
  if (c !== lastCwnd) out.push(`C ${now()} ${c}`);
  if (ss !== lastSs) out.push(`S ${now()} ${ss}`);
  lastCwnd = c;
  lastSs = ss;
};
const port = snd.port;
(snd as { port: typeof port }).port = {
  ...port,
  sendData: (flow: number, seq: number, len: number, isRetx: boolean, ecn: number) => {
    out.push(`T ${now()} ${seq + 1} ${len}${isRetx ? ' r' : ''}`);
    port.sendData(flow, seq, len, isRetx, ecn);
  },
} as typeof port;
const onAck = snd.onAck.bind(snd);
snd.onAck = (ack, ts, rwnd, n = 0, b = null, ece = false) => {
  out.push(`A ${now()} ${ack + 1}${blocks(n, b)}`);
  onAck(ack, ts, rwnd, n, b, ece);
  noteCc();
};
const onRto = snd.onRtoEvent.bind(snd);
snd.onRtoEvent = () => {
  const before = snd.timeouts;
  onRto();
  if (snd.timeouts !== before) out.push(`O ${now()} ${Math.round(snd.rto.rtoS * 1e9)}`);
  noteCc();
};
const setState = snd.setState.bind(snd);
snd.setState = (state) => {
  if (state !== snd.tcb.caState) out.push(`G ${now()} ${state}`);
  setState(state);
};
const onData = rcv.onData.bind(rcv);
rcv.onData = (seq, len, ts, ecn = 0) => {
  if (seq + len > rcv.rcvNxt) out.push(`R ${now()} ${seq + 1} ${len}`); // ns-3's Rx trace skips duplicates
  onData(seq, len, ts, ecn);
};
const rport = (rcv as unknown as { port: { sendAck: (...a: never[]) => void } }).port;
const sendAck = rport.sendAck.bind(rport) as (flow: number, ack: number, ts: number, rwnd: number, n: number, b: Float64Array, ece: boolean) => void;
(rport as { sendAck: typeof sendAck }).sendAck = (flow, ack, ts, rwnd, n, b, ece) => {
  out.push(`K ${now()} ${ack + 1}${blocks(n, b)}`);
  sendAck(flow, ack, ts, rwnd, n, b, ece);
};
const net = m.net as unknown as { drop: (p: number, byQueue: boolean) => void; pool: { rows: Float64Array; sack: Float64Array } };
const drop = net.drop.bind(net);
net.drop = (p: number, byQueue: boolean) => {
  const r = net.pool.rows;
  const b = p * ROW_SLOTS;
  if (!byQueue && r[b + F_FLOW] === 0) {
    if (r[b + F_TYPE] === DATA) out.push(`X ${now()} sink seq ${r[b + F_SEQ]! + 1} len ${r[b + F_PAYLOAD_OR_RWND]}`);
    else {
      const n = r[b + F_RETX_OR_SACKS]!;
      out.push(`X ${now()} gw ack ${r[b + F_SEQ]! + 1}${blocks(n, net.pool.sack.subarray(p * SACK_SLOTS, p * SACK_SLOTS + 2 * n))}`);
    }
  } else if (byQueue) out.push(`Q ${now()} queue drop ${r[b + F_TYPE] === DATA ? 'data' : 'ack'} ${r[b + F_SEQ]! + 1}`);
  drop(p, byQueue);
};
// --draws FILE: replay ns-3's error-model outcomes (one line per arrival at a bottleneck device,
// `t d|a|D|A`: data at the sink / ACK at the gateway, upper case dropped), skipping the handshake's
// three packets (SYN, SYN-ACK, the ACK of the SYN-ACK), so that both simulators see the same losses
// in the same order of arrivals; a data/ACK mismatch is reported where the two orders part.
const drawsFile = flag('draws', '');
if (drawsFile !== '') {
  const all = readFileSync(drawsFile, 'utf8').trim().split('\n').map((l) => l.split(' ')[1]!);
  let skipD = 2;
  let skipA = 1;
  const seq = all.filter((k) => {
    if ((k === 'd' || k === 'D') && skipD > 0) return skipD-- < 0;
    if ((k === 'a' || k === 'A') && skipA > 0) return skipA-- < 0;
    return true;
  });
  let i = 0;
  let current = -1;
  let mismatched = false;
  const netA = m.net as unknown as { onArrive: (p: number) => void; lossDraw: () => number };
  const arrive = netA.onArrive.bind(m.net);
  netA.onArrive = (p: number) => {
    current = p;
    arrive(p);
  };
  netA.lossDraw = () => {
    const k = seq[i++];
    const isData = net.pool.rows[current * ROW_SLOTS + F_TYPE] === DATA;
    if (!mismatched && k !== undefined && (k === 'd' || k === 'D') !== isData) {
      mismatched = true;
      out.push(`# draw ${i - 1}: ns-3 had ${k}, cclab a${isData ? ' data' : 'n ACK'} arrival at ${now()}`);
    }
    return k === undefined ? 1 : k === 'D' || k === 'A' ? 0 : 1;
  };
}
// ns-3's TcpSocketBase::ProcessSynRcvd sets m_delAckCount = m_delAckMaxCount: the first data segment is ACKed at once.
if (process.argv.includes('--ack-first')) (rcv as unknown as { pendingSegments: number }).pendingSegments = s.tcp.delAckCount - 1;
if (process.argv.includes('--advance-dup')) (snd.config as { sackAdvanceAck?: string }).sackAdvanceAck = 'dupAck';
noteCc();
m.sim.run(secondsToNs(s.durationS));
out.push(`# delivered ${rcv.deliveredBytes} bytes, goodput ${((rcv.deliveredBytes * 8) / s.durationS / 1e3).toFixed(1)} kbit/s, timeouts ${snd.timeouts}, recoveries ${snd.fastRecoveries}, retransmits ${snd.retransmits}`);
process.stdout.write(out.join('\n') + '\n');
