import type { TopLevelSpec } from 'vega-lite';
import type { PageChart } from './html.js';

/** A chart ready for a page, plus its exported Vega-Lite spec file. */
export interface BuiltChart {
  page: PageChart;
  /** Relative path and JSON text of the `.vl.json` written beside the page. */
  specFile: { path: string; text: string };
}

export interface ChartRequest {
  id: string;
  title: string;
  caption?: string;
  /** The interactive spec: embedded in the page and exported as `.vl.json`. */
  spec: TopLevelSpec;
  /** The spec of the static SVG fallback (defaults to `spec`); usually the same chart without hover layers. */
  staticSpec?: TopLevelSpec;
  /** Folder of the exported spec inside the report directory. */
  dir?: string;
}

/**
 * Compile a chart (any vega-lite warning is an error: ChartSpecError), render its static SVG on the
 * server, and prepare its `.vl.json`. The building block of every chart in cclab's reports.
 */
export async function buildChart(r: ChartRequest): Promise<BuiltChart> {
  // Vega and Vega-Lite load on the first chart (~0.8 CPU-s): a report starts its runs without them.
  const { compileStrict, packInlineData, renderSvg } = await import('./vega.js');
  const dir = r.dir ?? 'charts';
  const vega = compileStrict(r.id, r.spec);
  const staticVega = r.staticSpec ? compileStrict(`${r.id} (static)`, r.staticSpec) : vega;
  const svg = await renderSvg(staticVega);
  const path = `${dir}/${r.id}.vl.json`;
  const page: PageChart = { id: r.id, title: r.title, vega: packInlineData(vega), svg, specHref: path };
  if (r.caption !== undefined) page.caption = r.caption;
  return { page, specFile: { path, text: JSON.stringify(r.spec, null, 1) + '\n' } };
}

/** A DOM- and file-safe id from parts: `cwnd-lossy-reno`. */
export function chartId(...parts: string[]): string {
  return parts.map((p) => p.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')).join('-');
}
