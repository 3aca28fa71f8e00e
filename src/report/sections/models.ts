import { escapeHtml } from '../../page/html.js';
import { hasEngine } from '../../variants.js';
import type { ReportContext } from '../context.js';
import type { ModelDoc } from '../models.js';
import { modelsHtml } from './prose.js';

/** The fluid models' equations, each model once; a broken model file costs its own equations only. */
export async function modelsHtmlOf(ctx: ReportContext): Promise<string> {
  const { recipe, opts, variants, warnings } = ctx;
  if (!recipe.charts.includes('equations')) return '';
  const modelErrors: string[] = [];
  const docs: ModelDoc[] = [];
  if (opts.models) {
    const seen = new Set<string>();
    // Variants without a model file have no equations to show (their "no model" cells say so).
    for (const v of variants.filter((x) => hasEngine(x, 'fluid'))) {
      let got: ModelDoc[];
      try {
        got = await opts.models(v);
      } catch (e) {
        // A broken model file costs its own equations, named in the page and on stderr; the rest stay.
        if (!(e instanceof Error && e.name === 'InputError')) throw e;
        modelErrors.push(`${v}: ${e.message}`);
        warnings.push(`fluid model of ${v}: ${e.message}`);
        continue;
      }
      for (const d of got) {
        if (!seen.has(d.id)) docs.push(d);
        seen.add(d.id);
      }
    }
  }
  return modelsHtml(docs, warnings) + (modelErrors.length ? `<p class="untrusted">Not shown: ${modelErrors.map(escapeHtml).join('; ')}</p>` : '');
}
