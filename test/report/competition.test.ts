import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/run.js';
import { formatNumber } from '../../src/compare/format.js';
import { buildChart, type ChartRequest } from '../../src/page/chartkit.js';
import { competitionSection, fairnessChart, flowCwndChart, sharesChart } from '../../src/report/competition.js';
import { compileStrict } from '../../src/page/vega.js';
import { parseScenarioText } from '../../src/scenario/check/load.js';
import { loadEngines } from '../../src/engines.js';

const TWO = parseScenarioText('variant: reno\ndurationS: 8\nbottleneck: {bandwidthBps: 10e6}\nflows: [{variant: cubic}, {access: {delayS: 0.01}}]\n', 'two.yaml');
const ONE = parseScenarioText('variant: reno\ndurationS: 8\nbottleneck: {bandwidthBps: 10e6}\n', 'one.yaml');

describe('report: competition section', () => {
  it('draws flows, shares and fairness for a two-flow case (specs compile without warnings), and nothing for one flow', async () => {
    const engines = await loadEngines();
    const cases = await runComparison([TWO, ONE], ['reno'], { engines });
    const [two] = cases;
    const comp = two!.comparison.competition!;
    for (const spec of [flowCwndChart(two!, comp), sharesChart(two!, comp), fairnessChart(two!, comp)]) expect(() => compileStrict('competition', spec)).not.toThrow();
    const requests: ChartRequest[] = [];
    const section = await competitionSection(cases, async (r) => {
      requests.push(r);
      await buildChart(r);
      return `<figure id="${r.id}"></figure>`;
    });
    expect(section!.children!.map((c) => c.title)).toEqual(['two']);
    expect(requests.map((r) => r.id)).toEqual(['flows-two-reno', 'shares-two-reno', 'fairness-two-reno']);
    // The summary table carries the comparison's own numbers.
    expect(section!.children![0]!.html).toContain(formatNumber(comp.jain.packet));
    expect(section!.children![0]!.html).toContain(formatNumber(comp.rtt!.packetExponent));
    expect(await competitionSection([cases[1]!], async () => '')).toBeNull();
  }, 120_000);
});

describe('reports/recipes/competition.yaml', () => {
  it('holds the four competitions of issue 9 with the RTTs its names promise', async () => {
    const { loadRecipe } = await import('../../src/report/recipe.js');
    const { propagationRttS } = await import('../../src/scenario/path.js');
    const { flowCc } = await import('../../src/scenario/flowCc.js');
    const r = loadRecipe('reports/recipes/competition.yaml');
    const byName = new Map(r.scenarios.map((s) => [typeof s === 'string' ? s : s.name, s]));
    const get = (n: string) => byName.get(n) as Exclude<(typeof r.scenarios)[number], string>;
    const variants = (n: string) => get(n).flows.map((_, i) => flowCc(get(n), i).variant);
    expect(variants('cubic-reno-10ms')).toEqual(['cubic', 'reno']);
    expect(propagationRttS(get('cubic-reno-10ms'), 0)).toBeCloseTo(0.01, 12);
    expect(propagationRttS(get('cubic-reno-100ms'), 0)).toBeCloseTo(0.1, 12);
    expect(variants('westwood-reno-lossy')).toEqual(['westwood', 'reno']);
    expect(get('westwood-reno-lossy').bottleneck.loss.rate).toBeGreaterThan(0);
    const rtt = get('reno-rtt-1-2');
    expect(propagationRttS(rtt, 1) / propagationRttS(rtt, 0)).toBeCloseTo(2, 12);
  });
});
