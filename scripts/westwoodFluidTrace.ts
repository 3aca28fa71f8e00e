/**
 * The fluid Westwood+'s states over time on a seed-study line (issue 21: its low mode under the ns3
 * profile): every --every seconds the window, the estimate (segments/s), be x Tp and the model's
 * other states, to set beside scripts/westwoodLowMode.ts's packet cuts.
 *   npx tsx scripts/westwoodFluidTrace.ts lossy|ns3-lossy|lfn|ns3-lfn [--profile ns3|none] [--every 1] [--models DIR] [--param k=v,...] [--access-delay S] [--bottleneck-delay S] [--loss P]
 */
import { fluidSystem } from '../src/fluid/run/runFluid.js';
import { solve } from '../src/solver/index.js';
import { numberArg, stringArg } from './scriptArgs.js';
import { applyLineFlags, seedStudyLine } from './seedStudyLine.js';

const s = seedStudyLine(process.argv[2] ?? 'lossy', 'westwood', 'westwoodFluidTrace.ts');
applyLineFlags(s);
const modelsDir = stringArg('models');
const params = Object.fromEntries((stringArg('param') ?? '').split(',').filter(Boolean).map((kv) => [kv.split('=')[0]!, Number(kv.split('=')[1])]));
const sys = fluidSystem(s, { ...(modelsDir !== undefined ? { modelsDir } : {}), params });
const sol = solve(sys.problem, { rtol: 1e-5, atol: 1e-7 });
const y = new Float64Array(sys.layout.n);
const v = (n: string): number => y[sys.layout.yFlow(0, n)]!;
console.log(`status ${sol.status}`);
const every = numberArg('every', 1);
for (let t = every; t <= s.durationS + 1e-9; t += every) {
  sol.stateInto(t, y);
  const extra = ['x', 'nto', 'nred', 'ss', 'esc', 'H'].filter((n) => sys.layout.yFlow(0, n) >= 0).map((n) => `${n} ${v(n).toFixed(3)}`);
  console.log(`${t.toFixed(2)} W ${v('W').toFixed(2)} be ${v('be').toFixed(2)} bn ${v('bn').toFixed(2)} ${extra.join(' ')}`);
}
