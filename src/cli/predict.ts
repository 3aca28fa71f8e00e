import { join, resolve } from 'node:path';
import { COMMANDS } from './commands.js';
import type { Command } from 'commander';
import { flowVariants, noModelText, variantsWithoutEngine } from '../scenario/flowCc.js';
import type { ClosedFormPrediction } from '../theory/closedForms.js';
import type { Scenario } from '../scenario/types.js';
import { summaryJson } from '../result/summaryJson.js';
import { formatRate } from '../units.js';
import { checkOutDir } from '../io/outDir.js';
import { addSingleRunOptions, formatRunTable, reportRunFailure, writeRunOutputs, type SingleRunFlags } from './output.js';
import { warnAbout } from './warnings.js';
import { addScenarioOptions, parseVariant, scenarioFromOptions } from './scenarioOptions.js';

interface PredictFlags extends SingleRunFlags {
  models?: string;
  stability?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('predict')
    .description(COMMANDS.predict.description);
  addSingleRunOptions(addScenarioOptions(cmd))
    .option('--models <dir>', "folder of fluid model files (default: the repository's models/)")
    .option('--stability', "the fluid model's equilibrium and the gain and phase margins of its linearised loop (mean-field models)")
    .action(async (opts: PredictFlags) => {
      const scenario = scenarioFromOptions(opts, opts.variant === undefined ? undefined : parseVariant(opts.variant));
      if (opts.out) checkOutDir(opts.out, '--out');
      warnAbout([scenario], opts);
      const { loadFluid, loadClosedForms, prepareFluidModels } = await import('../engines.js');
      const modelsDir = opts.models === undefined ? undefined : resolve(opts.models);
      // A flow whose variant has no fluid model yet: the closed forms alone, and "no model" said (exit 0).
      const missing = variantsWithoutEngine(scenario, 'fluid');
      const [runFluid, closedForms] = await Promise.all([loadFluid(), loadClosedForms(), missing.length > 0 ? undefined : prepareFluidModels(flowVariants(scenario), { modelsDir })]);
      const closedForm = closedForms(scenario).filter((c) => c.appliesTo.includes(scenario.variant));
      if (missing.length > 0) {
        await printWithoutModel(scenario, noModelText(missing), closedForm, opts);
        return;
      }
      const result = runFluid(scenario, modelsDir === undefined ? {} : { modelsDir });
      if (opts.out) writeRunOutputs(opts.out, result);
      const stability = opts.stability ? await stabilityOf(scenario, modelsDir) : undefined;
      // A failed solve prints its reason and NaN numbers: never exit 0 with them (--json too).
      reportRunFailure(result);
      if (opts.json) {
        process.stdout.write(JSON.stringify({ ...summaryJson(result), closedForm, ...(stability ? { stability } : {}) }) + '\n');
        return;
      }
      const lines = [formatRunTable(result), '', ...closedFormLines(closedForm)];
      if (stability) {
        lines.push('', 'linear stability:');
        if ('reason' in stability) {
          lines.push(`  n/a: ${stability.reason}`);
          const c = 'limitCycle' in stability ? stability.limitCycle : undefined;
          if (c) lines.push(`  limit cycle (from the model over the measurement): period ${c.periodS === null ? 'none found' : `${c.periodS.toFixed(3)} s`}, queue ${c.queueMinPackets.toFixed(1)}..${c.queueMaxPackets.toFixed(1)} packets (mean ${c.queueMeanPackets.toFixed(1)}), cwnd ${c.cwndMinSegments.toFixed(1)}..${c.cwndMaxSegments.toFixed(1)} segments`);
        } else {
          lines.push(`  equilibrium: ${stability.regime} queue, W0 ${stability.W0.toFixed(2)} segments, q0 ${stability.q0.toFixed(1)} packets, p0 ${stability.p0.toExponential(3)}, R0 ${(1000 * stability.R0).toFixed(1)} ms`);
          const margins = `crossover ${stability.crossoverRadS?.toPrecision(3) ?? 'none'} rad/s, phase margin ${stability.phaseMarginDeg.toFixed(1)} deg, gain margin ${stability.gainMargin.toFixed(3)}`;
          const verdict = stability.stable ? 'stable' : 'unstable';
          lines.push(stability.feedback ? `  ${verdict}: ${margins}${stability.note ? ` (${stability.note})` : ''}` : `  ${verdict} (plant poles): ${stability.note}`);
        }
      }
      process.stdout.write(lines.join('\n') + '\n');
    });
}

/** The closed forms' lines of the table: value, note, and the reasons when outside their validity. */
function closedFormLines(closedForm: readonly ClosedFormPrediction[]): string[] {
  const lines = ['closed forms:'];
  for (const c of closedForm) {
    const value =
      c.bbr?.share != null
        ? `BBR share ${(100 * c.bbr.share).toFixed(1)}% of the link`
        : c.cwndSegments === null || c.goodputBps === null
          ? 'n/a'
          : `${c.cwndSegments.toFixed(2)} segments, ${formatRate(c.goodputBps)}`;
    lines.push(`  ${c.title}: ${value}${c.note ? ` (${c.note})` : ''}`);
    const reasons = c.validity.reasons.filter((r) => r !== c.note);
    if (!c.validity.valid && reasons.length > 0) lines.push(`    outside its validity: ${reasons.join('; ')}`);
  }
  if (closedForm.length === 0) lines.push('  none applies to this variant');
  return lines;
}

/** predict for a scenario the fluid engine has no model of: "no model" and the closed forms (table, --json, --out). */
async function printWithoutModel(s: Scenario, why: string, closedForm: readonly ClosedFormPrediction[], opts: PredictFlags): Promise<void> {
  const json = { engine: 'fluid', variant: s.variant, scenario: s.name, status: 'no-model', noModel: why, closedForm };
  if (opts.out) {
    const [{ writeFileAtomic }, { asUserIo }] = await Promise.all([import('../io/atomicWrite.js'), import('../io/outDir.js')]);
    await asUserIo('--out', () => writeFileAtomic(join(opts.out!, 'closed-forms.json'), JSON.stringify(json, null, 1) + '\n'));
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify(json) + '\n');
    return;
  }
  process.stdout.write([`fluid model      none: ${why}`, `scenario         ${s.name}, variant ${s.variant}`, '', ...closedFormLines(closedForm)].join('\n') + '\n');
}

/** The loop's figures for --stability (JSON-ready), or why there are none (a hybrid model, no equilibrium). */
async function stabilityOf(s: Scenario, modelsDir: string | undefined) {
  const [{ scenarioStability }, { InputError }] = await Promise.all([import('../theory/stability.js'), import('../errors.js')]);
  try {
    const a = scenarioStability(s, modelsDir === undefined ? {} : { modelsDir });
    const e = a.equilibrium;
    return {
      regime: e.regime, W0: e.W0, q0: e.q0, p0: e.p0, R0: e.R0, stable: a.stable, phaseMarginDeg: a.phaseMarginDeg, gainMargin: a.gainMargin,
      crossoverRadS: a.crossoverRadS, feedback: a.feedback, ...(a.note ? { note: a.note } : {}),
    };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    // No equilibrium (a hybrid model): the limit cycle the model runs instead, from the model.
    const { limitCycle } = await import('../theory/limitCycle.js');
    return { reason: err.problem, limitCycle: limitCycle(s, modelsDir === undefined ? {} : { modelsDir }) };
  }
}
