/**
 * The packet engine's BBRv3 short-term bound (inflight_shortterm, inflight_lo) cut by cut, one flow on
 * a validate-grid point: per loss round outside probing, the bound before and after, inflight_latest
 * (the round's largest delivered-in-an-interval) against the flight, cwnd and the round's loss count,
 * and the tx_in_flight of the sample that set inflight_latest (models/README.md, "BBRv3's short-term
 * bounds at p = 5e-2").
 *   npx tsx scripts/bbr3LoTrace.ts --loss 0.05 --rtt 0.03 [--seed 1] [--to S] [--summary]
 */
import { runPacket } from '../src/packet/run.js';
import { pointScenario } from '../src/validate/grid.js';
import { Bbr3Model } from '../src/cc/bbr3/model.js';
import type { Bbr3Ack } from '../src/cc/bbr3/state.js';
import { numberArg, hasFlag } from './scriptArgs.js';

const s = pointScenario('bbr3', numberArg('loss', 0.05), numberArg('rtt', 0.03), 100e6, 20);
s.seed = numberArg('seed', 1);
s.durationS = numberArg('to', 4);
// Only the trace is wanted: a measurement window inside the run keeps the engine's input check.
s.measureFromS = Math.min(s.measureFromS, s.durationS / 2);
const summary = hasFlag('summary');
let roundMaxInflight = 0;
let roundLostBytes = 0;
let roundAcked = 0;
let roundMaxTx = 0;
let txAtLatest = 0;
let bestDel = 0;
const origAck = Bbr3Model.prototype.onAck;
Bbr3Model.prototype.onAck = function (this: Bbr3Model, rs: Bbr3Ack, srttS: number): void {
  const st = this.state;
  const mss = this.ctx.mssBytes;
  const before = st.inflightShorttermBytes;
  const hiBefore = st.inflightLongtermBytes;
  const cwndBefore = this.cwndBytes;
  const latestBefore = Math.max(st.inflightLatestBytes, rs.deliveredBytes);
  const modeBefore = st.mode;
  roundMaxInflight = Math.max(roundMaxInflight, rs.inflightBytes);
  roundLostBytes += rs.newlyLostBytes;
  roundAcked += rs.newlyAckedBytes;
  roundMaxTx = Math.max(roundMaxTx, rs.txInFlightBytes);
  if (rs.deliveredBytes >= bestDel) {
    bestDel = rs.deliveredBytes;
    txAtLatest = rs.txInFlightBytes;
  }
  origAck.call(this, rs, srttS);
  if (st.lossRoundStart) {
    const after = st.inflightShorttermBytes;
    if (after !== before && Number.isFinite(after)) {
      const b = Number.isFinite(before) ? before / mss : cwndBefore / mss;
      console.log(`${rs.nowS.toFixed(3)} ${modeBefore.padEnd(16)} lo ${b.toFixed(1)} -> ${(after / mss).toFixed(1)} (x${(after / mss / b).toFixed(3)}) latest ${(latestBefore / mss).toFixed(1)} maxFlight ${(roundMaxInflight / mss).toFixed(1)} cwnd ${(cwndBefore / mss).toFixed(1)} hi ${(hiBefore / mss).toFixed(1)} lost ${(roundLostBytes / mss).toFixed(0)} acked ${(roundAcked / mss).toFixed(0)} rec ${rs.inFastRecovery ? 1 : 0} maxTx ${(roundMaxTx / mss).toFixed(0)} txAtLatest ${(txAtLatest / mss).toFixed(0)}`);
    } else if (!summary) console.log(`${rs.nowS.toFixed(3)} ${modeBefore.padEnd(16)} round: lo ${Number.isFinite(before) ? (before / mss).toFixed(1) : 'inf'} maxFlight ${(roundMaxInflight / mss).toFixed(1)} cwnd ${(cwndBefore / mss).toFixed(1)} hi ${(hiBefore / mss).toFixed(1)} lost ${(roundLostBytes / mss).toFixed(0)} acked ${(roundAcked / mss).toFixed(0)}`);
    roundMaxInflight = 0;
    roundLostBytes = 0;
    roundAcked = 0;
    roundMaxTx = 0;
    bestDel = 0;
  }
};
runPacket(s);
