/**
 * The fluid BBRv3's bounds over time on a validate-grid point (models/README.md, "BBRv3 at p = 5e-2"):
 * per window, the time means of inflight_hi, inflight_lo, the BDP (bw x rtprop), the flight and the
 * probes (REFILL entries) it made.
 *   npx tsx scripts/bbr3FluidTrace.ts --loss 0.05 --rtt 0.01 [--to S] [--windows S] [--models DIR] [--per-probe]
 */
import { fluidSystem } from '../src/fluid/run/runFluid.js';
import { solve } from '../src/solver/index.js';
import { pointScenario } from '../src/validate/grid.js';
import { numberArg, stringArg, hasFlag } from './scriptArgs.js';

const modelsDir = stringArg('models');
const s = pointScenario('bbr3', numberArg('loss', 0.05), numberArg('rtt', 0.01), 100e6, 20);
s.durationS = numberArg('to', s.durationS);
const win = numberArg('windows', 10);
const sys = fluidSystem(s, modelsDir !== undefined ? { modelsDir } : {});
const sol = solve(sys.problem, { rtol: 1e-5, atol: 1e-7 });
const y = new Float64Array(sys.layout.n);
const v = (n: string): number => y[sys.layout.yFlow(0, n)]!;
// Sampled every millisecond (a round is 10-300 ms on the grid).
const dt = 0.001;
let k = 0;
let acc = { n: 0, hi: 0, lo: 0, bdp: 0, flight: 0, probes: 0 };
let lastPb = 0;
console.log(`status ${sol.status}; measure from ${s.measureFromS.toFixed(2)} s`);
for (let t = 0.001; t <= s.durationS; t += dt) {
  sol.stateInto(t, y);
  const pb = v('pb');
  if (pb === 2 && lastPb !== 2) {
    acc.probes++;
    if (hasFlag('per-probe')) process.stdout.write(`  ${t.toFixed(3)} REFILL hi ${v('inflightHi').toFixed(2)} lo ${Math.min(v('inflightLo'), 1e6).toFixed(2)} bdp ${(v('bw') * v('rtprop')).toFixed(2)} flight ${v('flight').toFixed(2)}`);
  }
  if (pb === 0 && lastPb >= 2 && hasFlag('per-probe')) console.log(` -> ${lastPb === 3 ? 'UP' : 'REFILL'} cut: hi ${v('inflightHi').toFixed(2)}`);
  lastPb = pb;
  acc.n++;
  acc.hi += Math.min(v('inflightHi'), 1e4);
  acc.lo += Math.min(v('inflightLo'), 1e4);
  acc.bdp += v('bw') * v('rtprop');
  acc.flight += v('flight');
  if (t >= (k + 1) * win) {
    const f = (x: number): string => (x / acc.n).toFixed(2);
    console.log(`${(k * win).toFixed(0)}-${((k + 1) * win).toFixed(0)} s: hi ${f(acc.hi)} lo ${f(acc.lo)} bdp ${f(acc.bdp)} flight ${f(acc.flight)} probes ${acc.probes}`);
    k++;
    acc = { n: 0, hi: 0, lo: 0, bdp: 0, flight: 0, probes: 0 };
  }
}
