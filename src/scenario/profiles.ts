/**
 * Behaviour profiles: `tcp.profile: ns3 | linux | rfc` (CLI `--profile`). Each profile is one column
 * of the table below: every choice where ns-3, Linux and the RFCs differ and cclab has a switch for
 * it, with the source of each entry (an ns-3 file, a Linux file, an RFC clause). A profile is
 * resolved INTO the scenario (src/scenario/resolveProfile.ts): the `tcp` fields it names are filled
 * in, and the congestion-control knobs go to `ccDefaults` (per variant, under a flow's own and the
 * top-level `ccParams`), so `--print-scenario` shows every resolved value and the engines never
 * read the profile itself. An explicit field or `--cc-param` wins over the profile.
 *
 * Without a profile a scenario keeps cclab's historical mix (the `none` column): mostly ns-3's
 * example, with Linux's strict `recover` check, Linux's HyStart thresholds, RFC 9438's real-valued
 * CUBIC arithmetic and the RFC 6928 initial-window rule. Those results are the byte-identity
 * baseline (scripts/fingerprint.ts), which is why the default is not silently one of the profiles.
 *
 * Sources are read from ns-3-dev (src/internet/model/), Linux (net/ipv4/) and the RFCs; the facts
 * carry over, none of their code does.
 */
import { VARIANTS, type Variant } from '../variants.js';
import type { TcpSpec } from './types.js';

export const PROFILES = ['ns3', 'linux', 'rfc'] as const;
export type ProfileName = (typeof PROFILES)[number];

export function isProfileName(x: unknown): x is ProfileName {
  return typeof x === 'string' && (PROFILES as readonly string[]).includes(x);
}

/** One profile's value for a row, and where it comes from. */
export interface ProfileChoice {
  value: number | string | boolean;
  source: string;
}

/** The `tcp` fields a profile sets (the scenario's own, scalar ones). */
export type ProfileTcpField = Exclude<keyof TcpSpec, 'profile'>;

/** A row of the table: one mechanism, the field that carries it, each profile's choice. */
export interface ProfileRow {
  mechanism: string;
  /** `tcp.<field>` or `cc.<variant>.<knob>` (a ParamSpec of src/cc/<variant>.ts). */
  field: `tcp.${ProfileTcpField}` | `cc.${Variant}.${string}`;
  /** What a scenario without a profile does (today's default), for the README. */
  none: string;
  values: Readonly<Record<ProfileName, ProfileChoice>>;
}

/** One profile's choice as a table cell: [value, source]. */
type Cell = readonly [value: ProfileChoice['value'], source: string];

/** A row from its cells (the table below writes a row as its mechanism, field, default and cells). */
function row(mechanism: string, field: ProfileRow['field'], none: string, cells: Readonly<Record<ProfileName, Cell>>): ProfileRow {
  const choice = ([value, source]: Cell): ProfileChoice => ({ value, source });
  return { mechanism, field, none, values: { ns3: choice(cells.ns3), linux: choice(cells.linux), rfc: choice(cells.rfc) } };
}

/** The cells of a row where every profile makes the same choice, each with its own source. */
const same = (value: ProfileChoice['value'], ns3: string, linux: string, rfc: string): Record<ProfileName, Cell> => ({
  ns3: [value, ns3],
  linux: [value, linux],
  rfc: [value, rfc],
});

/** The table. Order = README order. */
export const PROFILE_TABLE: readonly ProfileRow[] = [
  row('initial window rule', 'tcp.initialWindow', 'rfc6928', {
    ns3: ['segments', 'tcp-socket-base.cc: m_cWnd = InitialCwnd x segment size'],
    linux: ['segments', 'tcp.h TCP_INIT_CWND, tcp_init_cwnd: segments'],
    rfc: ['rfc6928', 'RFC 6928 §2: min(10 MSS, max(2 MSS, 14600 B))'],
  }),
  row('initial window, segments', 'tcp.initialCwndSegments', '10', same(10, 'TcpSocket InitialCwnd = 10', 'TCP_INIT_CWND = 10', 'RFC 6928 §2: 10')),
  row('minimum RTO', 'tcp.minRtoS', '1 s', {
    ns3: [1, 'TcpSocketBase MinRto = 1 s'],
    linux: [0.2, 'tcp.h TCP_RTO_MIN = HZ / 5'],
    rfc: [1, 'RFC 6298 (2.4): 1 s'],
  }),
  row('maximum RTO', 'tcp.maxRtoS', '60 s', {
    ns3: [60, 'RttEstimator / TcpSocketBase: 60 s cap'],
    linux: [120, 'tcp.h TCP_RTO_MAX = 120 HZ'],
    rfc: [60, 'RFC 6298 (2.5): a maximum of at least 60 s'],
  }),
  row('RTO back-off cleared by', 'tcp.rtoBackoffReset', 'newAck', {
    ns3: ['newAck', 'tcp-socket-base.cc NewAck: m_rto recomputed from the estimator on every ACK of new data'],
    linux: ['rttSample', 'tcp_input.c tcp_ack_update_rtt: icsk_backoff = 0 only on a valid RTT sample'],
    rfc: ['rttSample', "RFC 6298 (5.5-5.7) with Karn's algorithm: the backed-off RTO stays until a valid RTT sample"],
  }),
  row('delayed ACK: segments per ACK', 'tcp.delAckCount', '2', same(2, 'TcpSocket DelAckCount = 2', 'tcp_input.c __tcp_ack_snd_check: more than one full segment (quick-ACK mode at start not modelled)', 'RFC 5681 §4.2: at least every second full-sized segment')),
  row('delayed ACK: timeout', 'tcp.delAckTimeoutS', '0.2 s', {
    ns3: [0.2, 'TcpSocket DelAckTimeout = 200 ms'],
    linux: [0.04, 'tcp.h TCP_DELACK_MIN = HZ / 25 (ATO adapts up to TCP_DELACK_MAX 200 ms; not modelled)'],
    rfc: [0.2, 'RFC 5681 §4.2 / RFC 1122 4.2.3.2: less than 500 ms; 200 ms as BSD'],
  }),
  row('SACK', 'tcp.sack', 'on', same(true, 'tcp-variants-comparison.cc: sack = true (TcpSocketBase Sack default)', 'sysctl tcp_sack = 1', 'RFC 2018, RFC 6675')),
  row('window in SACK recovery', 'tcp.recovery', 'classic', {
    ns3: ['classic', 'tcp-variants-comparison.cc selects TcpClassicRecovery (the library default is TcpPrrRecovery)'],
    linux: ['prr', 'tcp_input.c tcp_cwnd_reduction: PRR-SSRB'],
    rfc: ['classic', 'RFC 6675 §5 (4.2): cwnd = ssthresh (Standards Track; RFC 6937 PRR is Experimental)'],
  }),
  row('ssthresh input at a SACK fast retransmit (NewReno, Tahoe)', 'tcp.sackSsthreshInput', 'pipe', {
    ns3: ['pipe', 'tcp-socket-base.cc EnterRecovery: GetSsThresh(tcb, BytesInFlight())'],
    linux: ['pipe', 'no NewReno/Tahoe module (tcp_reno_ssthresh cuts from snd_cwnd); as ns-3'],
    rfc: ['flightSize', 'RFC 6675 §5 (4.2) and RFC 5681 eq. (4): FlightSize / 2'],
  }),
  row('`recover` check before a new fast retransmit (no SACK)', 'tcp.recoverCheck', 'above', {
    ns3: ['atLeast', 'tcp-socket-base.cc: m_highRxAckMark >= m_recover'],
    linux: ['above', 'tcp_input.c tcp_try_undo_recovery: hold state until something *above* high_seq is ACKed (Reno)'],
    rfc: ['atLeast', 'RFC 6582 §3.2 step 1: the ACK covers more than recover (the highest sequence number sent), i.e. ACK >= SND.MAX'],
  }),
  row('RFC 6675 rescue retransmission (NextSeg rule 4)', 'tcp.rescueRetransmission', 'on', {
    ns3: [false, 'tcp-tx-buffer.cc NextSeg: rule (4) not implemented (the SHOULD is declined)'],
    linux: [true, 'no rule 4 in tcp_xmit_retransmit_queue; a lost tail is probed by TLP (RFC 8985, not modelled), which the rescue stands in for'],
    rfc: [true, 'RFC 6675 §4 NextSeg (4): SHOULD'],
  }),
  row('timer restart by partial ACKs in SACK recovery', 'tcp.sackPartialAckTimer', 'every', {
    ns3: ['first', 'tcp-socket-base.cc ProcessAck: NewAck(ackNumber, m_isFirstPartialAck)'],
    linux: ['every', 'tcp_input.c tcp_ack: tcp_rearm_rto on every ACK of new data'],
    rfc: ['every', 'RFC 6298 (5.3) (RFC 6582 3.2 step 5 "Impatient" is for NewReno without SACK)'],
  }),
  row('ACK that moves SND.UNA and SACKs new data (open, disorder)', 'tcp.sackAdvanceAck', 'newAck', {
    ns3: ['dupAck', 'tcp-socket-base.cc ProcessAck: isDupack = scoreboardUpdated, DupAck(); IncreaseWindow and NewAck (timer restart) only in CA_OPEN'],
    linux: ['newAck', 'tcp_input.c tcp_ack: tcp_clean_rtx_queue rearms the RTO and tcp_cong_avoid may grow cwnd on any ACK of new data'],
    rfc: ['newAck', 'RFC 6298 (5.3): restart the timer on an ACK of new data; RFC 5681 3.1: grow cwnd on it'],
  }),
  row('what starts a SACK recovery', 'tcp.sackRecoveryStart', 'anyAck', {
    ns3: ['dupAck', 'tcp-socket-base.cc: only DupAck calls EnterRecovery, which resends m_highRxAckMark (SND.UNA) even if already resent'],
    linux: ['anyAck', 'tcp_input.c tcp_fastretrans_alert / tcp_time_to_recover on every ACK'],
    rfc: ['anyAck', 'RFC 6675 section 5: IsLost (HighACK + 1) checked on each ACK'],
  }),
  row('RTT samples from ACKs of retransmitted data', 'tcp.rttSamples', 'karn', {
    ns3: ['timestamps', 'tcp-socket-base.cc CalculateRttSample: with the TS option, the echo gives the sample even for a retransmitted segment'],
    linux: ['timestamps', 'tcp_input.c tcp_ack_update_rtt: seq_rtt_us < 0 (retransmitted) falls back to tcp_rtt_tsopt_us'],
    rfc: ['timestamps', 'RFC 6298 section 3: Karn\'s rule, except with the timestamp option (RFC 7323 section 4)'],
  }),
  row('first RTT sample from the handshake', 'tcp.handshakeRtt', 'off', {
    ns3: [true, 'tcp-socket-base.cc DoForwardUp: EstimateRtt on the SYN-ACK; m_minRtt = min(m_srtt) keeps it (Westwood+ GetSsThresh reads it)'],
    linux: [true, "tcp_input.c tcp_rcv_synsent_state_process -> tcp_ack: the SYN's RTT sample (tcp_ack_update_rtt)"],
    rfc: [true, 'RFC 6298 (2.2): the first RTT measurement, the SYN exchange\'s (RFC 7323 timestamps on the SYN)'],
  }),
  row("Nagle's algorithm for a short segment", 'tcp.nagle', 'classic', {
    ns3: ['classic', 'tcp-socket-base.cc SendPendingData: holds less than a segment while UnAckDataCount() > 0'],
    linux: ['minshall', 'tcp_output.c tcp_nagle_check: holds it only while an earlier short segment is unacknowledged (tcp_minshall_check)'],
    rfc: ['classic', 'RFC 1122 4.2.3.4 / RFC 896: hold while any data is unacknowledged'],
  }),
  row('Reno: partial ACKs without SACK', 'cc.reno.partialAcks', '1 (stay in recovery)', {
    ns3: [1, 'TcpLinuxReno under TcpClassicRecovery stays in recovery on partial ACKs'],
    linux: [1, 'tcp_input.c tcp_fastretrans_alert: recovery until high_seq (NewReno)'],
    rfc: [0, 'RFC 5681 §3.2: Reno leaves fast recovery on the first ACK of new data'],
  }),
  row('CUBIC growth arithmetic', 'cc.cubic.cntArithmetic', '0 (real-valued)', {
    ns3: [1, 'tcp-cubic.cc Update: whole segments, cnt per one-segment increase'],
    linux: [1, 'tcp_cubic.c bictcp_update: cnt in fixed point (Linux also forgets W_max at a timeout, bictcp_reset; not separable here)'],
    rfc: [0, 'RFC 9438 §4.2-4.5: real-valued W_cubic(t), target clamped to [cwnd, 1.5 cwnd]'],
  }),
  row('CUBIC slow start: HyStart', 'cc.cubic.hystart', '1', {
    ns3: [1, 'tcp-cubic.cc HyStart = true'],
    linux: [1, 'tcp_cubic.c hystart = 1'],
    rfc: [0, 'RFC 9438 §4.10: slow start per RFC 5681 (HyStart++ RFC 9406 is a MAY)'],
  }),
  row('CUBIC HyStart thresholds', 'cc.cubic.hystartNs3', '0 (Linux)', {
    ns3: [1, 'tcp-cubic.cc HystartUpdate: ACK train delayMin, delay clamp(delayMin, 4 ms, 1 s), SRTT samples'],
    linux: [0, 'tcp_cubic.c hystart_update: ACK train delayMin / 2, delay clamp(delayMin / 8, 4, 16 ms)'],
    rfc: [0, 'not used (HyStart off)'],
  }),
  row('CUBIC growth floor before the first loss', 'cc.cubic.cntClamp', '20', {
    ns3: [20, 'tcp-cubic.cc Update: cnt <= 20 while m_lastMaxCwnd == 0'],
    linux: [20, 'tcp_cubic.c bictcp_update: cnt <= 20 while last_max_cwnd == 0'],
    rfc: [0, 'RFC 9438: the curve only'],
  }),
  row('Westwood+ bandwidth sampling', 'cc.westwood.estimator', '1 (ns-3)', {
    ns3: [1, 'tcp-westwood-plus.cc PktsAcked/EstimateBW: windows of one SRTT, segmentsAcked of every ACK'],
    linux: [0, 'tcp_westwood.c westwood_update_window: windows of max(RTT, 50 ms), bytes with dupACK debt'],
    rfc: [0, 'no RFC; Mascolo et al. 2004 as Linux implements it'],
  }),
  row('Westwood+ filter', 'cc.westwood.filter', '1 (ns-3)', {
    ns3: [1, 'tcp-westwood-plus.cc Filter: Tustin, alpha 0.9, from 0'],
    linux: [0, 'tcp_westwood.c westwood_filter: two 7/8 EWMA stages, first sample fills both'],
    rfc: [0, 'no RFC; as Linux'],
  }),
  row('Westwood+ window increase', 'cc.westwood.segmentCounting', '0 (per ACK)', {
    ns3: [0, 'TcpWestwoodPlus inherits TcpNewReno::IncreaseWindow: per ACK'],
    linux: [1, 'tcp_westwood.c uses tcp_reno_cong_avoid: per acknowledged segment'],
    rfc: [0, 'RFC 5681 eq. (2), (3): per ACK'],
  }),
];

function rowTarget(row: ProfileRow): { kind: 'tcp'; field: ProfileTcpField } | { kind: 'cc'; variant: Variant; knob: string } {
  const parts = row.field.split('.');
  if (parts[0] === 'tcp') return { kind: 'tcp', field: parts[1] as ProfileTcpField };
  return { kind: 'cc', variant: parts[1] as Variant, knob: parts[2]! };
}

/** The `tcp` fields a profile sets, with its values. */
export function profileTcp(profile: ProfileName): Partial<Record<ProfileTcpField, number | string | boolean>> {
  const out: Partial<Record<ProfileTcpField, number | string | boolean>> = {};
  for (const row of PROFILE_TABLE) {
    const t = rowTarget(row);
    if (t.kind === 'tcp') out[t.field] = row.values[profile].value;
  }
  return out;
}

/** The congestion-control knobs a profile sets, per variant (only variants it has a knob for). */
export function profileCcDefaults(profile: ProfileName): Partial<Record<Variant, Record<string, number>>> {
  const out: Partial<Record<Variant, Record<string, number>>> = {};
  for (const row of PROFILE_TABLE) {
    const t = rowTarget(row);
    if (t.kind !== 'cc' || !(VARIANTS as readonly string[]).includes(t.variant)) continue;
    (out[t.variant] ??= {})[t.knob] = row.values[profile].value as number;
  }
  return out;
}

function cell(c: ProfileChoice): string {
  const v = typeof c.value === 'boolean' ? (c.value ? 'on' : 'off') : String(c.value);
  return `\`${v}\` (${c.source})`;
}

/** The README's table: one column per profile, the field, and what no profile does. */
export function profileTableMarkdown(): string {
  const lines = [
    '| mechanism | field | no profile | `ns3` | `linux` | `rfc` |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of PROFILE_TABLE) {
    const field = row.field.startsWith('cc.') ? `\`--cc-param ${row.field.split('.')[2]}\` (${row.field.split('.')[1]})` : `\`${row.field}\``;
    lines.push(`| ${row.mechanism} | ${field} | ${row.none} | ${cell(row.values.ns3)} | ${cell(row.values.linux)} | ${cell(row.values.rfc)} |`);
  }
  return lines.join('\n');
}
