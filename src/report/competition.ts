import type { TopLevelSpec } from 'vega-lite';
import type { Competition } from '../compare/competition.js';
import { formatBps, formatNumber } from '../compare/format.js';
import type { ComparisonCase } from '../compare/run.js';
import type { Series } from '../result/types.js';
import { VARIANT_FACTS } from '../variants.js';
import type { ChartRequest } from '../page/chartkit.js';
import { chartId } from '../page/chartkit.js';
import { CHART_WIDTH, ENGINE_COLORS, seriesRows } from './charts.js';
import { roundSig } from '../page/downsample.js';
import { escapeHtml, type Section } from '../page/html.js';

/**
 * The report's competition section: for every scenario x variant whose scenario has more than one
 * flow, each flow's cwnd with both engines (small multiples), the goodput shares and Jain's fairness
 * index over time (src/compare/competition.ts computes the figures; this file only draws them).
 */

/** cwnd panels drawn per case; with more flows the first ones are drawn and the caption says so. */
export const MAX_FLOW_PANELS = 8;
/** Buckets per flow panel (min/max downsampling): small multiples need fewer points than a full chart. */
const PANEL_BUCKETS = 200;

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

type AddChart = (r: ChartRequest) => Promise<string>;

function flowLabel(c: Competition, i: number): string {
  const f = c.flows[i]!;
  return `flow ${i} · ${VARIANT_FACTS[f.variant].title} · RTT ${roundSig(f.baseRttS * 1e3, 3)} ms`;
}

/** Short axis label of a flow (the full one is in the tooltip). */
function shortLabel(c: Competition, i: number): string {
  return `${i} ${VARIANT_FACTS[c.flows[i]!.variant].title}`;
}

/**
 * Upper end of a panel's window axis: 1.2 x the largest value after the first fifth of the run, so
 * that the first slow start's peak does not flatten the steady state (lines above are clipped).
 */
function steadyTop(lines: Record<string, Series>, fromS: number): number | undefined {
  let top = 0;
  for (const s of Object.values(lines)) for (let k = 0; k < s.t.length; k++) if (s.t[k]! >= fromS && s.v[k]! > top) top = s.v[k]!;
  return top > 0 ? roundSig(1.2 * top, 3) : undefined;
}

/** A column of panels, one per flow, each with the packet (steps) and fluid (lines) cwnd in segments. */
export function flowCwndChart(cc: ComparisonCase, comp: Competition, interactive = true): TopLevelSpec {
  const n = Math.min(MAX_FLOW_PANELS, comp.flows.length);
  const panels: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const lines: Record<string, Series> = {};
    for (const r of [cc.packet, cc.fluid]) {
      const s = r.status === 'ok' ? r.flows[i]?.trace.cwndBytes : undefined;
      if (s && s.t.length > 0) lines[r.engine] = { t: s.t, v: s.v.map((x) => x / r.mssBytes) };
    }
    const yMax = steadyTop(lines, cc.scenario.measureFromS + 0.2 * (cc.scenario.durationS - cc.scenario.measureFromS));
    const line = (test: string, interpolate: 'step-after' | 'linear') => ({
      transform: [{ filter: test }],
      mark: { type: 'line', strokeWidth: 1, interpolate, clip: true },
      encoding: {
        x: { field: 't', type: 'quantitative', title: i === n - 1 ? 'time (s)' : null, scale: { zero: false, nice: false } },
        y: { field: 'v', type: 'quantitative', title: 'cwnd (segments)', ...(yMax ? { scale: { domain: [0, yMax] } } : {}) },
        color: { field: 'engine', type: 'nominal', title: 'engine', scale: ENGINE_COLORS },
        ...(interactive ? { tooltip: [{ field: 'engine', type: 'nominal' }, { field: 't', type: 'quantitative', format: '.2f' }, { field: 'v', type: 'quantitative', title: 'cwnd', format: '.1f' }] } : {}),
      },
    });
    panels.push({
      title: { text: flowLabel(comp, i), anchor: 'start', fontSize: 11, fontWeight: 'normal' },
      width: CHART_WIDTH - 120,
      height: 70,
      data: { values: seriesRows(lines, PANEL_BUCKETS) },
      layer: [line("datum.engine === 'packet'", 'step-after'), line("datum.engine !== 'packet'", 'linear')],
    });
  }
  return {
    $schema: SCHEMA,
    title: `cwnd per flow: ${cc.scenario.name}`,
    vconcat: panels,
    resolve: { scale: { x: 'shared' } },
    spacing: 6,
    config: { view: { stroke: null } },
  } as TopLevelSpec;
}

/** Each flow's share of the total goodput, packet and fluid side by side, with the equal share as a rule. */
export function sharesChart(cc: ComparisonCase, comp: Competition, interactive = true): TopLevelSpec {
  const values = comp.flows.flatMap((f, i) =>
    (['packet', 'fluid'] as const).flatMap((engine) => {
      const share = engine === 'packet' ? f.packetShare : f.fluidShare;
      return share === null ? [] : [{ flow: shortLabel(comp, i), detail: flowLabel(comp, i), engine, sharePct: roundSig(100 * share, 4) }];
    }),
  );
  return {
    $schema: SCHEMA,
    title: `Goodput shares: ${cc.scenario.name}`,
    width: { step: comp.flows.length > 8 ? 24 : 90 },
    height: 180,
    layer: [
      {
        data: { values },
        mark: { type: 'bar' },
        encoding: {
          x: { field: 'flow', type: 'nominal', title: 'flow', axis: { labelAngle: comp.flows.length > 8 ? -60 : 0 }, sort: comp.flows.map((_, i) => shortLabel(comp, i)) },
          xOffset: { field: 'engine', type: 'nominal', sort: ['packet', 'fluid'] },
          y: { field: 'sharePct', type: 'quantitative', title: 'share of goodput (%)' },
          color: { field: 'engine', type: 'nominal', title: 'engine', scale: ENGINE_COLORS },
          ...(interactive ? { tooltip: [{ field: 'detail', type: 'nominal', title: 'flow' }, { field: 'engine', type: 'nominal' }, { field: 'sharePct', type: 'quantitative', title: 'share (%)', format: '.1f' }] } : {}),
        },
      },
      { data: { values: [{ equal: roundSig(100 / comp.flows.length, 4) }] }, mark: { type: 'rule', strokeDash: [4, 3], color: '#555' }, encoding: { y: { field: 'equal', type: 'quantitative' } } },
    ],
  } as TopLevelSpec;
}

/** Jain's index per window, both engines. */
export function fairnessChart(cc: ComparisonCase, comp: Competition, interactive = true): TopLevelSpec {
  const o = comp.overTime;
  const values = (['packet', 'fluid'] as const).flatMap((engine) =>
    o.t.flatMap((t, k) => {
      const j = (engine === 'packet' ? o.packet : o.fluid)[k];
      return j === null || j === undefined ? [] : [{ t: roundSig(t, 6), jain: roundSig(j, 4), engine }];
    }),
  );
  return {
    $schema: SCHEMA,
    title: `Fairness over time: ${cc.scenario.name}`,
    width: CHART_WIDTH - 160,
    height: 140,
    data: { values },
    mark: { type: 'line', point: true, strokeWidth: 1.2, ...(interactive ? { tooltip: true } : {}) },
    encoding: {
      x: { field: 't', type: 'quantitative', title: `time (s), windows of ${roundSig(o.windowS, 3)} s`, scale: { zero: false, nice: false } },
      y: { field: 'jain', type: 'quantitative', title: "Jain's index", scale: { domain: [roundSig(1 / comp.flows.length, 3), 1] } },
      color: { field: 'engine', type: 'nominal', title: 'engine', scale: ENGINE_COLORS },
    },
  } as TopLevelSpec;
}

/** The numbers under the charts: Jain's index and the RTT unfairness, both engines. */
function summaryHtml(comp: Competition): string {
  const rows = [
    ["Jain's index, whole run", formatNumber(comp.jain.packet), formatNumber(comp.jain.fluid)],
    ...comp.flows.slice(0, MAX_FLOW_PANELS).map((f, i) => [`goodput of flow ${i} (${escapeHtml(VARIANT_FACTS[f.variant].title)})`, formatBps(f.packetGoodputBps), formatBps(f.fluidGoodputBps)]),
  ];
  if (comp.rtt) {
    rows.push(
      [`goodput ratio, shortest / longest RTT (RTT ratio ${formatNumber(comp.rtt.rttRatio)})`, formatNumber(comp.rtt.packetRatio), formatNumber(comp.rtt.fluidRatio)],
      ['exponent a of goodput ∝ RTT<sup>−a</sup>', formatNumber(comp.rtt.packetExponent), formatNumber(comp.rtt.fluidExponent)],
    );
  }
  const body = rows.map((r) => `<tr><th scope="row">${r[0]}</th><td>${r[1]}</td><td>${r[2]}</td></tr>`).join('');
  return `<table class="comparison"><thead><tr><th></th><th>packet</th><th>fluid</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** The competition section, or null when no case has more than one flow. `add` builds and places a chart. */
export async function competitionSection(cases: readonly ComparisonCase[], add: AddChart): Promise<Section | null> {
  const multi = cases.filter((c) => c.comparison.competition !== null);
  if (multi.length === 0) return null;
  const children: Section[] = [];
  for (const cc of multi) {
    const comp = cc.comparison.competition!;
    const id = chartId(cc.scenario.name, cc.comparison.variant);
    const more = comp.flows.length > MAX_FLOW_PANELS ? ` The first ${MAX_FLOW_PANELS} of ${comp.flows.length} flows are drawn; all are in comparison.json.` : '';
    let html = `<p>${comp.flows.length} flows. ${escapeHtml(comp.overTime.method)}.</p>`;
    html += await add({ id: `flows-${id}`, title: `cwnd per flow: ${cc.scenario.name}`, caption: `Each flow's congestion window, packet simulation (steps) and fluid model (lines).${more}`, spec: flowCwndChart(cc, comp), staticSpec: flowCwndChart(cc, comp, false) });
    html += await add({ id: `shares-${id}`, title: `Goodput shares: ${cc.scenario.name}`, caption: 'Share of the total goodput per flow; the dashed line is an equal share.', spec: sharesChart(cc, comp), staticSpec: sharesChart(cc, comp, false) });
    html += await add({ id: `fairness-${id}`, title: `Fairness over time: ${cc.scenario.name}`, caption: "Jain's index of the flows' rates per window: 1 is an equal split, 1/n one flow taking all.", spec: fairnessChart(cc, comp), staticSpec: fairnessChart(cc, comp, false) });
    html += summaryHtml(comp);
    children.push({ id: `competition-${id}`, title: `${cc.scenario.name}`, html });
  }
  const intro =
    '<p>How flows that share the bottleneck divide it. Goodput shares and the whole-run index use each flow\'s goodput; the index over time uses each flow\'s rate estimate cwnd / SRTT per window. ' +
    'With RTTs that differ, the exponent a of goodput ∝ RTT<sup>−a</sup> is fitted over the flows (the literature finds a between 1 and 2 for Reno).</p>';
  return { id: 'competition-section', title: 'Competing flows', html: intro, children };
}
