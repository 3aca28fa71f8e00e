/**
 * The packet engine's BBRv3 probes, one flow on a validate-grid point (models/README.md, "BBRv3 at
 * p = 5e-2: the loss-free-round floor"): per ProbeBW cycle, inflight_longterm (inflight_hi) at
 * REFILL, its largest value in UP and its value after the cut, the rounds of UP and of the cycle,
 * the flight of the lost packet that ended UP, and the time-weighted cwnd and bounds.
 *   npx tsx scripts/bbr3ProbeTrace.ts --loss 0.05 --rtt 0.01 [--seed 1] [--from S] [--to S] [--windows S]
 */
import { runPacket } from '../src/packet/run.js';
import { pointScenario } from '../src/validate/grid.js';
import { Bbr3Model } from '../src/cc/bbr3/model.js';
import type { Bbr3Ack, Bbr3LostPacket } from '../src/cc/bbr3/state.js';
import type { Moment } from '../src/cc/bbr3/probe-bw.js';
import { numberArg, hasFlag } from './scriptArgs.js';

const loss = numberArg('loss', 0.05);
const rtt = numberArg('rtt', 0.01);
const seed = numberArg('seed', 1);
const s = pointScenario('bbr3', loss, rtt, 100e6, 20);
s.seed = seed;
const from = numberArg('from', s.measureFromS);
const to = numberArg('to', s.durationS);
s.durationS = Math.max(s.durationS, to);
const windowS = numberArg('windows', 0);

interface Probe { t: number; hRefill: number; hUpMax: number; hAfter: number; upRounds: number; cycleRounds: number; lostTxInFlight: number; bdp: number; lo: number; endedByLoss: boolean }
const probes: Probe[] = [];
let cur: Probe | null = null;
let lastMode = '';
let roundAtDown = 0;
let roundAtUp = 0;
let lastLostTx = NaN;
// Time-weighted cwnd, inflight_hi, inflight_lo, BDP (segments) and the share of time each binds.
const acc = { t: 0, cwnd: 0, hi: 0, lo: 0, bdp: 0, hiBinds: 0, loBinds: 0 };
let lastT = NaN;
let lastSample = { cwnd: 0, hi: 0, lo: 0, bdp: 0 };
const windows: { cwnd: number; t: number }[] = [];

const origAck = Bbr3Model.prototype.onAck;
const origLost = Bbr3Model.prototype.onLostPacket;
Bbr3Model.prototype.onLostPacket = function (this: Bbr3Model, p: Bbr3LostPacket, at: Moment): void {
  const before = this.state.mode;
  origLost.call(this, p, at);
  if (before === 'probe_bw_up' && this.state.mode === 'probe_bw_down') lastLostTx = p.txInFlightBytes / this.ctx.mssBytes;
  observe(this, at.nowS);
};
Bbr3Model.prototype.onAck = function (this: Bbr3Model, rs: Bbr3Ack, srttS: number): void {
  const before = this.state.mode;
  const upBefore = before === 'probe_bw_up';
  origAck.call(this, rs, srttS);
  if (upBefore && this.state.mode === 'probe_bw_down') lastLostTx = NaN;
  observe(this, rs.nowS);
};
function observe(m: Bbr3Model, now: number): void {
  const st = m.state;
  const mss = m.ctx.mssBytes;
  const hi = st.inflightLongtermBytes / mss;
  const lo = st.inflightShorttermBytes / mss;
  const cwnd = m.cwndBytes / mss;
  const bdp = (st.maxBwBytesPerS * st.minRttS) / mss;
  if (now >= from && now <= to && Number.isFinite(lastT)) {
    const dt = now - Math.max(lastT, from);
    if (dt > 0) {
      acc.t += dt;
      acc.cwnd += dt * lastSample.cwnd;
      acc.hi += dt * lastSample.hi;
      acc.lo += dt * Math.min(lastSample.lo, 1e6);
      acc.bdp += dt * lastSample.bdp;
      if (lastSample.cwnd >= lastSample.hi - 1e-9) acc.hiBinds += dt;
      else if (lastSample.cwnd >= lastSample.lo - 1e-9) acc.loBinds += dt;
      if (windowS > 0) {
        const k = Math.floor((now - from) / windowS);
        while (windows.length <= k) windows.push({ cwnd: 0, t: 0 });
        windows[k]!.cwnd += dt * lastSample.cwnd;
        windows[k]!.t += dt;
      }
    }
  }
  lastT = now;
  lastSample = { cwnd, hi, lo, bdp };
  const mode = st.mode;
  if (mode !== lastMode) {
    if (mode === 'probe_bw_refill' && now >= from && now <= to) {
      cur = { t: now, hRefill: hi, hUpMax: hi, hAfter: NaN, upRounds: 0, cycleRounds: st.roundCount - roundAtDown, lostTxInFlight: NaN, bdp, lo: lastSample.lo, endedByLoss: false };
    }
    if (mode === 'probe_bw_up') roundAtUp = st.roundCount;
    if (lastMode === 'probe_bw_up' && cur) {
      cur.upRounds = st.roundCount - roundAtUp;
      cur.hAfter = hi;
      cur.endedByLoss = st.prevProbeTooHigh;
      cur.lostTxInFlight = lastLostTx;
      probes.push(cur);
      cur = null;
    } else if (lastMode === 'probe_bw_refill' && mode !== 'probe_bw_up' && cur) {
      cur.hAfter = hi;
      cur.endedByLoss = st.prevProbeTooHigh;
      probes.push(cur);
      cur = null;
    }
    if (mode === 'probe_bw_down') roundAtDown = st.roundCount;
    lastMode = mode;
  }
  if (mode === 'probe_bw_up' && cur) cur.hUpMax = Math.max(cur.hUpMax, hi);
}

const r = runPacket(s);
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const f = (x: number): string => x.toFixed(2);
const n = probes.length;
const upHist = [0, 1, 2, 3, 4, 5].map((k) => probes.filter((p) => (k < 5 ? p.upRounds === k : p.upRounds >= k)).length);
console.log(`bbr3 p=${loss} rtt=${rtt} seed=${seed} window ${from}-${to} s: goodput ${(r.flows[0]!.summary.goodputBps / 1e6).toFixed(2)} Mbit/s (grid window), run cwnd ${f(r.summary.meanCwndSegments)}`);
console.log(`  time-weighted: cwnd ${f(acc.cwnd / acc.t)} inflight_hi ${f(acc.hi / acc.t)} inflight_lo ${f(acc.lo / acc.t)} BDP ${f(acc.bdp / acc.t)}; hi binds ${f((100 * acc.hiBinds) / acc.t)}% lo binds ${f((100 * acc.loBinds) / acc.t)}%`);
console.log(`  probes ${n} (${f(n / acc.t)}/s), cycle ${f(mean(probes.map((p) => p.cycleRounds)))} rounds, UP ${f(mean(probes.map((p) => p.upRounds)))} rounds; UP rounds 0/1/2/3/4/5+: ${upHist.join('/')}; ended by loss ${probes.filter((p) => p.endedByLoss).length}`);
console.log(`  inflight_hi at REFILL ${f(mean(probes.map((p) => p.hRefill)))}, max in UP +${f(mean(probes.map((p) => p.hUpMax - p.hRefill)))}, after ${f(mean(probes.map((p) => p.hAfter - p.hRefill)))} (per probe); lost packet's tx_in_flight - H(REFILL) ${f(mean(probes.filter((p) => Number.isFinite(p.lostTxInFlight)).map((p) => p.lostTxInFlight - p.hRefill)))}; inflight_lo at REFILL ${f(mean(probes.map((p) => Math.min(p.lo, 1e6))))}, BDP ${f(mean(probes.map((p) => p.bdp)))}`);
if (hasFlag('per-probe')) for (const p of probes) console.log(`  ${f(p.t)} H ${f(p.hRefill)} -> max ${f(p.hUpMax)} -> ${f(p.hAfter)} up ${p.upRounds} cyc ${p.cycleRounds} lostTx ${f(p.lostTxInFlight)} bdp ${f(p.bdp)} lo ${f(Math.min(p.lo, 1e6))}`);
if (windowS > 0) console.log(`  cwnd per ${windowS}-s window: ${windows.map((w) => f(w.cwnd / w.t)).join(' ')}`);
