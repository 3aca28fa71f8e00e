import { compile, type TopLevelSpec } from 'vega-lite';
import { parse, View, type Spec as VegaSpec } from 'vega';
import { toCsv, type CsvValue } from './csv.js';

/** A Vega-Lite compile that failed or warned; chart specs must compile cleanly. */
export class ChartSpecError extends Error {
  constructor(
    readonly chartId: string,
    readonly messages: string[],
  ) {
    super(`chart ${chartId}: ${messages.join('; ')}`);
    this.name = 'ChartSpecError';
  }
}

/** vega-lite's logger interface, collecting instead of printing. */
function collectingLogger(into: string[]) {
  let level = 0;
  const logger = {
    level(l?: number) {
      if (l === undefined) return level;
      level = l;
      return logger;
    },
    error(...args: unknown[]) {
      into.push(`error: ${args.map(String).join(' ')}`);
      return logger;
    },
    warn(...args: unknown[]) {
      into.push(`warn: ${args.map(String).join(' ')}`);
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
  };
  return logger;
}

/** Compile to Vega, returning the warnings vega-lite logged (an empty array for a clean spec). */
export function compileWithWarnings(spec: TopLevelSpec): { vega: VegaSpec; warnings: string[] } {
  const warnings: string[] = [];
  const out = compile(spec, { logger: collectingLogger(warnings) as never });
  return { vega: out.spec as VegaSpec, warnings };
}

/** Compile, throwing ChartSpecError on any warning: a warning means the chart is not what was meant. */
export function compileStrict(id: string, spec: TopLevelSpec): VegaSpec {
  const { vega, warnings } = compileWithWarnings(spec);
  if (warnings.length > 0) throw new ChartSpecError(id, warnings);
  return vega;
}

/** Static SVG of a compiled spec, rendered headless (no canvas or DOM needed). */
export async function renderSvg(vega: VegaSpec): Promise<string> {
  const view = new View(parse(vega), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Inline datasets shorter than this stay JSON (the CSV header and parse map would not pay). */
const PACK_MIN_ROWS = 50;

/**
 * The compiled spec with each large inline dataset of flat records written as CSV text that Vega
 * parses when the page opens (`format: {type: 'csv', parse}`): a record costs its values and
 * commas instead of its keys repeated, a third of the bytes for the cwnd traces (about 0.9 MB of
 * the seed study's page). Exact: numbers keep JavaScript's shortest round-trip form, numeric
 * columns are parsed back to numbers (an empty cell to null, as JSON's null), and a dataset whose
 * text columns hold null or whose records are not flat stays as it was.
 */
export function packInlineData(vega: VegaSpec): VegaSpec {
  const data = (vega as { data?: Record<string, unknown>[] }).data;
  if (!Array.isArray(data)) return vega;
  const packed = data.map((d) => {
    const values = d.values;
    if (!Array.isArray(values) || values.length < PACK_MIN_ROWS || d.format !== undefined) return d;
    const kinds = new Map<string, 'number' | 'string' | 'boolean'>();
    for (const r of values as Record<string, unknown>[]) {
      if (r === null || typeof r !== 'object' || Array.isArray(r)) return d;
      for (const [k, v] of Object.entries(r)) {
        const kind = v === null ? null : typeof v;
        if (kind !== null && kind !== 'number' && kind !== 'string' && kind !== 'boolean') return d;
        const had = kinds.get(k);
        if (kind !== null && had !== undefined && had !== kind) return d;
        if (kind !== null) kinds.set(k, kind);
      }
    }
    const columns = [...new Set((values as Record<string, unknown>[]).flatMap((r) => Object.keys(r)))];
    for (const c of columns) {
      const kind = kinds.get(c);
      // A text column with null (or a column that is only null) would read back as '' : keep JSON.
      if (kind === undefined || (kind !== 'number' && (values as Record<string, unknown>[]).some((r) => r[c] === null || !(c in r)))) return d;
    }
    const parse = Object.fromEntries(columns.filter((c) => kinds.get(c) !== 'string').map((c) => [c, kinds.get(c)!]));
    return { ...d, values: toCsv(values as Record<string, CsvValue>[], columns), format: { type: 'csv', parse } };
  });
  return { ...vega, data: packed } as unknown as VegaSpec;
}
