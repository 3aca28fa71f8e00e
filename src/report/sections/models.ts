import { escapeHtml } from '../../page/html.js';
import { hasEngine } from '../../variants.js';
import type { ReportContext } from '../context.js';
import type { ModelDoc, ModelDocSource } from '../models.js';
import { modelsHtml } from './prose.js';

/**
 * The fluid models' equations, each model once: every variant's, then the models a rule picked for
 * some case (Reno alone on an active queue, DCTCP on a step queue: src/fluid/run/modelChoice.ts). A
 * broken model file costs its own equations only.
 */
export async function modelsHtmlOf(ctx: ReportContext): Promise<string> {
  const { recipe, opts, variants, warnings } = ctx;
  if (!recipe.charts.includes('equations')) return '';
  const modelErrors: string[] = [];
  const docs: ModelDoc[] = [];
  const models = opts.models;
  if (models) {
    const seen = new Set<string>();
    const add = async (id: string): Promise<void> => {
      let got: ModelDoc[];
      try {
        got = await models(id);
      } catch (e) {
        // A broken model file costs its own equations, named in the page and on stderr; the rest stay.
        if (!(e instanceof Error && e.name === 'InputError')) throw e;
        modelErrors.push(`${id}: ${e.message}`);
        warnings.push(`fluid model of ${id}: ${e.message}`);
        return;
      }
      for (const d of got) {
        if (!seen.has(d.id)) docs.push(d);
        seen.add(d.id);
      }
    };
    // Variants without a model file have no equations to show (their "no model" cells say so).
    const modelled = variants.filter((x) => hasEngine(x, 'fluid'));
    for (const v of modelled) await add(v);
    const { fluidModelIds } = await import('../../fluid/run/runFluid.js');
    const picked = new Set(ctx.cases.filter((c) => hasEngine(c.comparison.variant, 'fluid')).flatMap((c) => fluidModelIds({ ...c.scenario, variant: c.comparison.variant }, opts.modelsDir)));
    for (const id of picked) if (!(modelled as string[]).includes(id)) await add(id);
  }
  return modelsHtml(docs, warnings) + (modelErrors.length ? `<p class="untrusted">Not shown: ${modelErrors.map(escapeHtml).join('; ')}</p>` : '');
}

/** The section's HTML made ahead (build.ts prebuildCharts), what it warned, and what it was made from. */
export interface PrebuiltModels {
  key: string;
  source: ModelDocSource | null | undefined;
  html: string;
  warnings: string[];
}

/** What {@link modelsHtmlOf} reads of a context besides the model source: its HTML is a function of these. */
export function modelsKey(ctx: ReportContext): string {
  return JSON.stringify([ctx.recipe.charts.includes('equations'), ctx.variants, ctx.opts.modelsDir ?? null, ctx.cases.map((c) => [c.scenario, c.comparison.variant])]);
}

/** {@link modelsHtmlOf} made while the workers ran, with its warnings, for {@link modelsSection}. */
export async function prebuildModels(ctx: ReportContext): Promise<PrebuiltModels> {
  const before = ctx.warnings.length;
  const html = await modelsHtmlOf(ctx);
  return { key: modelsKey(ctx), source: ctx.opts.models, html, warnings: ctx.warnings.slice(before) };
}

/**
 * The section's HTML: the prebuilt one when it was made from the same inputs (its warnings said
 * again, in their place), else made now. Made again after the last run it was ~30% of the page's
 * build, the part that is on npm start's wall time (the mathjs common-subexpression search and LaTeX
 * of every model); ahead, it runs while the workers do.
 */
export async function modelsSection(ctx: ReportContext): Promise<string> {
  const p = ctx.opts.prebuiltModels;
  if (p && p.source === ctx.opts.models && p.key === modelsKey(ctx)) {
    ctx.warnings.push(...p.warnings);
    return p.html;
  }
  return modelsHtmlOf(ctx);
}
