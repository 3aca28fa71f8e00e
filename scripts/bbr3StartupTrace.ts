/**
 * BBRv3's STARTUP exit in both engines on a validate-grid point (models/README.md, "BBRv3 at p = 5e-2"):
 * the packet engine's loss rounds in STARTUP (loss events, delivered volume, BDP estimate) and the round,
 * time, reason, inflight_hi and BDP at its exit; the fluid's round-clock values at its exit.
 *   npx tsx scripts/bbr3StartupTrace.ts --loss 0.05 --rtt 0.3 [--seed 1,2,3] [--to S] [--models DIR] [--fluid-only|--packet-only]
 */
import { runPacket } from '../src/packet/run.js';
import { fluidSystem } from '../src/fluid/run/runFluid.js';
import { solve } from '../src/solver/index.js';
import { pointScenario } from '../src/validate/grid.js';
import { Bbr3Model } from '../src/cc/bbr3/model.js';
import type { Bbr3Ack } from '../src/cc/bbr3/state.js';
import { numberArg, stringArg, hasFlag } from './scriptArgs.js';

const loss = numberArg('loss', 0.05);
const rtt = numberArg('rtt', 0.3);
const f = (x: number): string => x.toFixed(1);

if (!hasFlag('fluid-only')) {
  for (const seed of (stringArg('seed') ?? '1').split(',').map(Number)) {
    const s = pointScenario('bbr3', loss, rtt, 100e6, 20);
    s.seed = seed;
    s.durationS = numberArg('to', Math.max(3, 40 * rtt));
    // From 0: the scenario keeps its grid window otherwise, past a short --to.
    s.measureFromS = 0;
    let events = 0;
    let done = false;
    const lines: string[] = [];
    const origAck = Bbr3Model.prototype.onAck;
    Bbr3Model.prototype.onAck = function (this: Bbr3Model, rs: Bbr3Ack, srttS: number): void {
      const st = this.state;
      const mss = this.ctx.mssBytes;
      const was = st.mode;
      if (rs.newlyLostBytes > 0 && was === 'startup') events++;
      origAck.call(this, rs, srttS);
      if (done) return;
      const bdp = (st.maxBwBytesPerS * st.minRttS) / mss;
      if (was === 'startup' && st.lossRoundStart) {
        lines.push(`  ${rs.nowS.toFixed(3)} s round ${st.roundCount}: loss events ${events}, rs lost/tx ${f(rs.lostBytes / mss)}/${f(rs.txInFlightBytes / mss)}, delivered ${f(rs.deliveredBytes / mss)}, inflight ${f(rs.inflightBytes / mss)}, bdp ${f(bdp)}, recovery ${rs.inFastRecovery}`);
        events = 0;
      }
      if (was === 'startup' && st.mode !== 'startup') {
        done = true;
        lines.push(`  EXIT ${rs.nowS.toFixed(3)} s round ${st.roundCount} by ${st.undoState === 'startup' ? 'loss' : 'plateau'}: inflight_hi ${f(st.inflightLongtermBytes / mss)} bdp ${f(bdp)} cwnd ${f(this.cwndBytes / mss)}`);
      }
    };
    runPacket(s);
    Bbr3Model.prototype.onAck = origAck;
    console.log(`packet seed ${seed}:`);
    console.log(lines.join('\n'));
  }
}
if (!hasFlag('packet-only')) {
  const s = pointScenario('bbr3', loss, rtt, 100e6, 20);
  s.durationS = numberArg('to', Math.max(3, 40 * rtt));
  s.measureFromS = 0;
  const modelsDir = stringArg('models');
  const sys = fluidSystem(s, modelsDir !== undefined ? { modelsDir } : {});
  const sol = solve(sys.problem, { rtol: 1e-5, atol: 1e-7 });
  const y = new Float64Array(sys.layout.n);
  const v = (n: string): number => y[sys.layout.yFlow(0, n)]!;
  let lastFullCnt = -1;
  let lastBw = -1;
  for (let t = 0.0005; t <= s.durationS; t += 0.0005) {
    sol.stateInto(t, y);
    if (v('bw') !== lastBw || v('fullCnt') !== lastFullCnt) {
      if (v('mode') === 0) console.log(`  fluid ${t.toFixed(3)} s: bdp ${f(v('bw') * v('rtprop'))} sent ${f(v('sent'))} lost ${f(v('lost'))} flight ${f(v('flight'))} fullCnt ${v('fullCnt')}`);
      lastBw = v('bw');
      lastFullCnt = v('fullCnt');
    }
    if (v('mode') !== 0) {
      console.log(`fluid EXIT ${t.toFixed(3)} s (${(t / rtt).toFixed(2)} Tp): inflight_hi ${f(Math.min(v('inflightHi'), 1e6))} bdp ${f(v('bw') * v('rtprop'))} sent ${f(v('sent'))} lost ${f(v('lost'))} flight ${f(v('flight'))}`);
      break;
    }
  }
}
