import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headlineAxis } from '../../src/runs/axes.js';
import { sweepReportHtml } from '../../src/sweep/report.js';
import { runSweep } from '../../src/sweep/sweep.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { tmp } from './helpers.js';

/**
 * The sweep page as a person meets it, from a small real sweep (lfn, whose 10 Mbit/s access link
 * caps the low-loss cells: they must carry the capacity mark), opened offline in Chromium.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('the sweep page in a browser', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    dir = tmp();
    const plan = {
      base: presetScenario('ns3-lfn', 'reno', { durationS: 10 }),
      axes: [headlineAxis('loss', '1e-4,1e-3,1e-2,1e-1'), headlineAxis('rtt', '20ms,80ms,200ms,400ms,600ms')],
      variants: ['reno', 'cubic'] as const,
      engines: ['packet', 'fluid'] as const,
      reps: 2,
      seed: 5,
    };
    await runSweep({ ...plan, variants: [...plan.variants], engines: [...plan.engines] }, { outDir: dir, cacheDir: null, workers: 0, report: sweepReportHtml });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('should draw every chart with no console errors, and lay out from 1024 to 1920 px without sideways scrolling', async () => {
    for (const width of [1024, 1920]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('request', (r) => {
        if (!/^(file|data|blob):/.test(r.url())) problems.push(`network request: ${r.url()}`);
      });
      await page.goto(pathToFileURL(join(dir, 'index.html')).href);
      await page.waitForFunction(() => [...document.querySelectorAll('figure.chart')].every((f) => f.classList.contains('live') || f.hasAttribute('data-error')), null, { timeout: 60_000 });
      const figs = await page.$$eval('figure.chart', (fs) => fs.map((f) => ({ id: f.id, error: f.getAttribute('data-error'), marks: Number(f.getAttribute('data-marks')) })));
      expect(figs.map((f) => f.id).sort()).toEqual(['map-err-0', 'map-pred-0', 'map-sim-0', 'vs-loss-0', 'vs-rtt-0', 'winner-0']);
      for (const f of figs) {
        expect(f.error, f.id).toBeNull();
        expect(f.marks, f.id).toBeGreaterThan(0);
      }
      const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(scroll, `page width at ${width} px`).toBeLessThanOrEqual(client);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('should open with a summary of findings and mark the capped cells, with the reason in the tooltip data', async () => {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html.indexOf('id="summary"')).toBeLessThan(html.indexOf('id="setup"'));
    expect(html).toMatch(/\d+ of 40 simulated cells are outside the models&#39; assumptions \(.*C, capacity-limited/);
    expect(html).toContain('the access link runs at 10.00 Mbit/s');
    const sim = JSON.parse(readFileSync(join(dir, 'charts', 'map-sim-0.vl.json'), 'utf8')) as { data: { values: { loss: number; rttS: number; label: string; validity: string; marked: boolean }[] } };
    const capped = sim.data.values.find((c) => c.loss === 1e-4 && c.rttS === 0.02)!;
    expect(capped.marked).toBe(true);
    expect(capped.label).toMatch(/^\d+(\.\d+)?M C$/); // value and mark: a 5 x 4 grid is small enough for labels
    expect(capped.validity).toMatch(/^capacity-limited: goodput \d+% of the tightest link's fair share/);
    expect(sim.data.values.every((c) => c.label !== '')).toBe(true);
  });

  it('should have no empty facet panels, decade ticks on the loss axis, and a legend that tells the fluid model and each closed form apart', () => {
    const spec = JSON.parse(readFileSync(join(dir, 'charts', 'vs-loss-0.vl.json'), 'utf8')) as {
      columns: number;
      data: { values: { panel: string }[] };
      spec: { layer: { encoding: { x?: { axis?: { values?: number[] } }; strokeDash?: { scale: { domain: string[] } } } }[] };
    };
    const panels = new Set(spec.data.values.map((d) => d.panel)).size;
    expect(panels % spec.columns === 0 || panels < spec.columns).toBe(true);
    expect(spec.spec.layer[0]!.encoding.x!.axis!.values).toEqual([1e-4, 1e-3, 1e-2, 1e-1]);
    const dash = spec.spec.layer.find((l) => l.encoding.strokeDash)!.encoding.strokeDash!.scale.domain;
    // One legend entry per model line, "variant · model", in the variant's colour with the model's dash.
    expect(dash[0]).toMatch(/^\w+ · fluid model$/);
    expect(dash.some((d) => d.endsWith(' · mathis'))).toBe(true);
    expect(dash.some((d) => d.endsWith(' · pftk-full'))).toBe(true);
    const lineLayer = spec.spec.layer.find((l) => l.encoding.strokeDash)! as unknown as { encoding: { color: { field: string; scale: { domain: string[]; range: string[] } }; strokeDash: { scale: { range: number[][] } } } };
    expect(lineLayer.encoding.color.field).toBe('line');
    expect(lineLayer.encoding.color.scale.domain).toEqual(dash);
    const colourOf = (name: string) => lineLayer.encoding.color.scale.range[dash.indexOf(name)];
    const v = dash[0]!.split(' · ')[0]!;
    expect(colourOf(`${v} · fluid model`)).toBe(colourOf(dash.find((d) => d.startsWith(`${v} · `) && d !== `${v} · fluid model`)!));
    expect(lineLayer.encoding.strokeDash.scale.range[0]).toEqual([1, 0]);
  });
});
