/**
 * The fluid Westwood+'s states over time on a seed-study line (issue 21: its low mode under the ns3
 * profile): every --every seconds the window, the estimate (segments/s), be x Tp and the model's
 * other states, to set beside scripts/westwoodLowMode.ts's packet cuts.
 *   npx tsx scripts/westwoodFluidTrace.ts lossy|ns3-lossy|lfn|ns3-lfn [--profile ns3|none] [--every 1] [--models DIR] [--param k=v,...] [--access-delay S] [--bottleneck-delay S] [--loss P]
 */
import { loadRecipe, resolveContrast, resolveScenarios } from '../src/report/recipe.js';
import { fluidSystem } from '../src/fluid/run/runFluid.js';
import { solve } from '../src/solver/index.js';
import { applyProfile, parseProfile } from '../src/scenario/resolveProfile.js';
import { numberArg, stringArg } from './scriptArgs.js';

const line = process.argv[2] ?? 'lossy';
const recipe = loadRecipe('reports/recipes/seed-study.yaml');
const s = [...resolveScenarios(recipe), ...resolveContrast(recipe)].find((x) => x.name === line);
if (!s) {
  console.error(`usage: westwoodFluidTrace.ts <lossy|ns3-lossy|lfn|ns3-lfn|normal|ns3-normal> (got ${line})`);
  process.exit(2);
}
s.variant = 'westwood';
for (const f of s.flows) delete f.variant;
const profile = stringArg('profile') ?? 'ns3';
if (profile !== 'none') applyProfile(s, parseProfile(profile, '--profile'));
const accessDelayS = stringArg('access-delay');
if (accessDelayS !== undefined) for (const f of s.flows) f.access!.delayS = Number(accessDelayS);
const bottleneckDelayS = stringArg('bottleneck-delay');
if (bottleneckDelayS !== undefined) s.bottleneck.delayS = Number(bottleneckDelayS);
const loss = stringArg('loss');
if (loss !== undefined) s.bottleneck.loss!.rate = Number(loss);
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
