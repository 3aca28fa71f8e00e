import { describe, expect, it } from 'vitest';
import type { TopLevelSpec } from 'vega-lite';
import { cwndChart, errorSummaryChart, goodputChart } from '../../src/report/charts.js';
import { buildChart } from '../../src/report/chartkit.js';
import { toCsv } from '../../src/report/csv.js';
import { minMaxDownsample } from '../../src/report/downsample.js';
import { compileWithWarnings, ChartSpecError } from '../../src/report/vega.js';
import { sampled, sawtooth } from '../compare/fixtures.js';

const saw = sampled(100, 50_000, sawtooth(40, 5, 0.1));
const smooth = sampled(100, 4000, (t) => 30 + 5 * Math.sin(t));

const specs: [string, TopLevelSpec][] = [];
for (const interactive of [true, false]) {
  specs.push([`cwnd+queue interactive=${interactive}`, cwndChart({ title: 't', cwnd: { packet: saw, fluid: smooth }, queue: { packet: saw, fluid: smooth }, references: [{ label: 'Mathis', value: 30 }] }, { interactive })]);
  specs.push([`cwnd only interactive=${interactive}`, cwndChart({ title: 't', cwnd: { packet: saw } }, { interactive })]);
  specs.push([`errors interactive=${interactive}`, errorSummaryChart([{ scenario: 'lossy', variant: 'reno', metric: 'fluid goodput', errorPct: -3, trusted: true, note: 'none' }, { scenario: 'lfn', variant: 'cubic', metric: 'fluid mean cwnd', errorPct: 40, trusted: false, note: 'timeouts-dominate' }], { interactive, scenarioOrder: ['lossy', 'lfn'], variantOrder: ['reno', 'cubic'] })]);
  specs.push([`goodput interactive=${interactive}`, goodputChart([{ scenario: 'lossy', variant: 'reno', source: 'packet', goodputBps: 4e4 }, { scenario: 'lossy', variant: 'reno', source: 'closed form', goodputBps: 5e4 }], { interactive })]);
}

describe('chart specs', () => {
  it.each(specs)('should compile %s without vega-lite warnings', (_name, spec) => {
    const { warnings } = compileWithWarnings(spec);
    expect(warnings).toEqual([]);
  });

  it('should turn a vega-lite warning into a ChartSpecError', async () => {
    const bad = { data: { values: [{ a: 1 }] }, mark: 'bar', encoding: { x: { field: 'a', type: 'quantitative' }, opacity: { field: 'a', type: 'nominal' } } } as TopLevelSpec;
    await expect(buildChart({ id: 'bad', title: 'bad', spec: bad })).rejects.toBeInstanceOf(ChartSpecError);
  });

  it('should render a static SVG with marks and export the spec', async () => {
    const c = await buildChart({ id: 'cwnd-x', title: 'x', spec: specs[0]![1], staticSpec: specs[1]![1] });
    expect(c.page.svg).toMatch(/^<svg/);
    expect(c.page.svg).toContain('<path');
    expect(c.specFile.path).toBe('charts/cwnd-x.vl.json');
    expect(JSON.parse(c.specFile.text).$schema).toContain('vega-lite');
  });

  it('should keep a long cwnd chart small: at most about 2 x buckets points per line', () => {
    const spec = cwndChart({ title: 't', cwnd: { packet: saw } }, { buckets: 300 }) as { data: { values: unknown[] } };
    expect(spec.data.values.length).toBeLessThanOrEqual(602);
  });
});

describe('min/max downsampling', () => {
  it('should keep every sawtooth peak and trough', () => {
    const d = minMaxDownsample(saw, 500);
    expect(d.t.length).toBeLessThanOrEqual(1002);
    expect(Math.max(...d.v)).toBe(Math.max(...saw.v));
    expect(Math.min(...d.v.slice(1))).toBe(Math.min(...saw.v.slice(1)));
    // after slow start a 40-segment sawtooth has peaks every 2 s: each survives in its own bucket
    const peaks = d.t.filter((t, i) => t > 10 && d.v[i]! > 39.9).length;
    expect(peaks).toBeGreaterThanOrEqual(40);
  });
  it('should keep points in time order and short series as they are', () => {
    const d = minMaxDownsample(saw, 100);
    expect(d.t.every((t, i) => i === 0 || t >= d.t[i - 1]!)).toBe(true);
    expect(minMaxDownsample({ t: [0, 1], v: [1, 2] }, 10)).toEqual({ t: [0, 1], v: [1, 2] });
  });
});

describe('CSV', () => {
  it('should quote cells with commas, quotes and newlines and leave missing values empty', () => {
    const rows = [{ a: 'x,y', b: 1.5, c: null }, { a: 'say "hi"', b: NaN, c: true }];
    expect(toCsv(rows, ['a', 'b', 'c'])).toBe('a,b,c\n"x,y",1.5,\n"say ""hi""",,true\n');
  });
});
