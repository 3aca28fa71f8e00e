import { describe, expect, it } from 'vitest';
import type { TopLevelSpec } from 'vega-lite';
import { errorSummaryChart, goodputChart } from '../../src/report/charts.js';
import { cwndChart, type CwndChartInput } from '../../src/report/cwndChart.js';
import { buildChart } from '../../src/page/chartkit.js';
import { toCsv } from '../../src/page/csv.js';
import { minMaxDownsample } from '../../src/page/downsample.js';
import { compileWithWarnings, ChartSpecError } from '../../src/page/vega.js';
import { sampled, sawtooth } from '../compare/fixtures.js';

const saw = sampled(100, 50_000, sawtooth(40, 5, 0.1));
const smooth = sampled(100, 4000, (t) => 30 + 5 * Math.sin(t));

const bytes = (s: { t: number[]; v: number[] }) => ({ t: s.t, v: s.v.map((x) => x * 340) });
function windows(over: Partial<CwndChartInput> = {}): CwndChartInput {
  return {
    title: 't',
    mssBytes: 340,
    series: [
      { engine: 'packet', what: 'cwnd', bytes: bytes(saw) },
      { engine: 'packet', what: 'ssthresh', bytes: bytes(sampled(100, 200, () => 20)) },
      { engine: 'fluid', what: 'cwnd', bytes: bytes(smooth) },
      { engine: 'fluid', what: 'ssthresh', bytes: bytes(sampled(100, 200, () => 25)) },
    ],
    ...over,
  };
}

const specs: [string, TopLevelSpec][] = [];
for (const interactive of [true, false]) {
  specs.push([`cwnd+queue interactive=${interactive}`, cwndChart(windows({ queue: { packet: saw, fluid: smooth }, references: [{ label: 'Mathis', bytes: 30 * 340 }], steadyFromS: 10 }), { interactive })]);
  specs.push([`cwnd only interactive=${interactive}`, cwndChart({ title: 't', mssBytes: 340, series: [{ engine: 'packet', what: 'cwnd', bytes: bytes(saw) }] }, { interactive })]);
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
    const spec = cwndChart({ title: 't', mssBytes: 340, series: [{ engine: 'packet', what: 'cwnd', bytes: bytes(saw) }] }, { buckets: 300 }) as { data: { values: unknown[] } };
    expect(spec.data.values.length).toBeLessThanOrEqual(602);
  });
});

describe('the cwnd chart', () => {
  const spec = cwndChart(windows({ references: [{ label: 'pftk-full', bytes: 30 * 340 }], steadyFromS: 10, yMaxBytes: 50_000, steadyMaxBytes: 20_000 })) as unknown as {
    params: { name: string; value: unknown }[];
    layer: { encoding: { color?: { scale?: { domain: string[]; range: string[] }; legend?: { symbolType?: string } | null }; strokeDash?: { scale: { domain: string[]; range: number[][] } }; y?: { scale?: { domainMax?: { expr: string } } } } }[];
  };
  it('lists every series in one legend, drawn as strokes with its own dash (cwnd solid, ssthresh dashed, the closed form, the steady-state start)', () => {
    const line = spec.layer[0]!.encoding;
    expect(line.color!.scale!.domain).toEqual(['packet cwnd', 'fluid cwnd', 'packet ssthresh', 'fluid ssthresh', 'closed form: pftk-full', 'steady state from']);
    expect(line.color!.legend!.symbolType).toBe('stroke');
    expect(line.strokeDash!.scale.domain).toEqual(line.color!.scale!.domain);
    expect(line.strokeDash!.scale.range[0]).toEqual([1, 0]);
    expect(line.strokeDash!.scale.range[2]).toEqual([6, 3]);
    // The hover points join no legend (no circles among the line symbols).
    expect(spec.layer.at(-1)!.encoding.color).toEqual({ value: '#222222' });
  });
  it('shows bytes by default with a segments toggle and a zoom to the steady state, on the y range it was given', () => {
    expect(spec.params.map((p) => [p.name, p.value])).toEqual([['window_unit', 'bytes'], ['steady_zoom', false]]);
    const expr = spec.layer[0]!.encoding.y!.scale!.domainMax!.expr;
    expect(expr).toBe("(steady_zoom ? 20000 : 50000) / (window_unit === 'segments' ? 340 : 1)");
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
