import { compile, type TopLevelSpec } from 'vega-lite';
import { parse, View, type Spec as VegaSpec } from 'vega';

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
