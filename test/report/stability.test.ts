import { describe, expect, it } from 'vitest';
import type { ComparisonCase } from '../../src/compare/run.js';
import { compareRuns } from '../../src/compare/compare.js';
import { EXAMPLE_POINTS, prepareStability, queueSwing, stabilitySection, OSCILLATION_SHARE, type ExampleFluidRun } from '../../src/report/stability.js';
import { prepareScenarioModels } from '../../src/engines.js';
import { hmtgScenario, MGT_RENO } from '../../src/theory/stabilityExample.js';
import { builtOrSource } from '../helpers/childModule.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import type { Scenario } from '../../src/scenario/types.js';
import { sampled, syntheticRun } from '../compare/fixtures.js';

function caseOf(s: Scenario, queue: (t: number) => number): ComparisonCase {
  const tr = sampled(s.durationS, 2000, queue);
  const packet = syntheticRun({ engine: 'packet', scenario: s, cwndSegments: tr });
  packet.queue.packets = tr;
  const fluid = syntheticRun({ engine: 'fluid', scenario: s, cwndSegments: tr });
  return { scenario: s, packet, fluid, closed: [], comparison: compareRuns(packet, fluid, []) };
}

// The pool from dist/ when fresh, so that its thread loads dist/ (test/sweep/pool.test.ts says why).
const { RunPool, DEFAULT_ENGINE_MODULE } = await builtOrSource('runs/pool', () => import('../../src/runs/pool.js'));

describe('the report\'s linear stability section', () => {
  it('queueSwing measures the 5th-95th percentile range over the last half, as a share of the buffer', () => {
    const t = Array.from({ length: 1001 }, (_, i) => i / 10);
    // A sawtooth 0..200 over a 200-packet buffer in the second half: about 90% of the buffer.
    const v = t.map((x) => (x < 50 ? 0 : 2 * ((x * 10) % 100)));
    expect(queueSwing({ t, v }, 200)!).toBeCloseTo(0.9, 1);
    expect(queueSwing({ t, v: t.map(() => 100) }, 200)).toBe(0);
  });
  it('puts the drop-tail loop (unstable) beside an oscillating packet queue, and says why a hybrid model has no analysis', () => {
    const reno = dumbbellScenario('reno');
    reno.durationS = 60;
    const B = reno.bottleneck.queue.limitPackets;
    const saw = caseOf(reno, (t) => B * ((t % 10) / 10));
    const cubic = caseOf({ ...reno, variant: 'cubic' }, () => B / 2);
    const newreno = caseOf(presetScenario('ns3-normal', 'newreno', { durationS: 60, seed: 1 }), () => 0);
    const warnings: string[] = [];
    const sec = stabilitySection([saw, cubic, newreno], warnings, { example: false })!;
    expect(sec.id).toBe('stability-section');
    const [, first, second, third] = sec.html.split('<tr>').slice(1);
    expect(first).toMatch(/full queue, W0 [\d.]+, q0 202\.0/);
    expect(first).toMatch(/<td colspan="3">no linear loop<\/td><td>unstable<sup>1<\/sup><\/td><td>oscillates \(swing \d+% of the buffer\)<\/td>/);
    expect(second).toMatch(/<td colspan="3"><\/td><td>n\/a<sup>2<\/sup><\/td><td>steady \(swing 0% of the buffer\)/);
    // NewReno's whole-byte growth (floor) no longer stops the analysis: random loss on an empty queue, no loop through p.
    expect(third).toMatch(/empty queue, W0 8\d\.\d, q0 0\.0, p0 1\.00e-4/);
    expect(third).toMatch(/<td colspan="3">no loop through p<\/td><td>stable \(plant poles\)<sup>3<\/sup><\/td>/);
    const notes = sec.html.slice(sec.html.indexOf('<ol')).split('<li>').slice(1);
    expect(notes[0]).toMatch(/sawtooth limit cycle/);
    expect(notes[1]).toMatch(/hybrid model/);
    expect(notes[2]).toMatch(/no loop through p/);
    // A hybrid model is a limit of the method, said in its row; nothing failed, so nothing on stderr.
    expect(warnings).toEqual([]);
    expect(sec.html).not.toMatch(/Hollot et al.'s example/);
    expect(OSCILLATION_SHARE).toBe(0.25);
  });
  it("shows Hollot et al.'s example from the model files beside their closed-form loop and the fluid queue: stable at N = 60, unstable at N = 5, at Tp = 0.8 s and with drop-tail", () => {
    const sec = stabilitySection([], [])!;
    const rows = sec.html.slice(sec.html.indexOf("Hollot et al.'s example")).split('<tr>').slice(2);
    expect(rows.map((r) => /<td>(\d+)<\/td><td>(\d+) ms<\/td>/.exec(r)!.slice(1).join('/'))).toEqual(EXAMPLE_POINTS.map((p) => `${p.N}/${1000 * p.TpS}`));
    const verdicts = rows.map((r) => [...r.matchAll(/<td>(stable|unstable)<\/td>/g)].map((m) => m[1]));
    // Ours and theirs agree at every point: stable down to N = 10 at Tp = 0.2 s and up to Tp = 0.5 s at N = 60.
    expect(verdicts).toEqual([['stable', 'stable'], ['stable', 'stable'], ['stable', 'stable'], ['unstable', 'unstable'], ['stable', 'stable'], ['unstable', 'unstable'], ['unstable']]);
    // The same link with a drop-tail buffer: held full, unstable, and the fluid queue swings over most of it.
    expect(rows[6]).toMatch(/^<td>drop-tail<\/td><td>60<\/td><td>200 ms<\/td><td>1000\.0 \/ 466\.7 ms<\/td>/);
    expect(rows[6]).toMatch(/their loop is RED's/);
    expect(rows[6]).toMatch(/oscillates \(swing \d{3} packets\)/);
    expect(rows[0]).toMatch(/<td>0\.0506<\/td><td>88\.7°<\/td>/);
    expect(rows[0]).toMatch(/settles \(swing 0\.\d\d packets\)/);
    expect(rows[3]).toMatch(/oscillates \(swing \d{3} packets\)/);
    expect(rows[5]).toMatch(/oscillates \(swing \d{3} packets\)/);
  });

  it("runs the example's fluid runs on a report's worker thread (MGT's Reno parameters carried to the engine there) with the same rows as in this thread", async () => {
    const pool = new RunPool(1);
    const asked: string[] = [];
    const onPool: ExampleFluidRun = async (scenario, params) => {
      asked.push(`${scenario.name} ${JSON.stringify(params)}`);
      await prepareScenarioModels([scenario]);
      return pool.runFull({ engineModule: DEFAULT_ENGINE_MODULE, engine: 'fluid', scenario, params }, 1);
    };
    try {
      const [there, here] = [await prepareStability([], true, onPool), await prepareStability([], true)];
      expect(asked).toEqual(EXAMPLE_POINTS.filter((p) => p.fluid).map((p) => `${hmtgScenario(p.N, p.TpS, undefined, p.queue).name} ${JSON.stringify(MGT_RENO)}`));
      expect(there.example).toEqual(here.example);
      expect((here.example as { rows: string[] }).rows[0]).toMatch(/settles \(swing 0\.\d\d packets\)/);
    } finally {
      await pool.destroy();
    }
  });
});
