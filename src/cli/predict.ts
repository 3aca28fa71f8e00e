import { resolve } from 'node:path';
import type { Command } from 'commander';
import { flowVariants } from '../scenario/flowCc.js';
import { summaryJson } from '../result/summaryJson.js';
import { formatRate } from '../units.js';
import { checkOutDir } from '../io/outDir.js';
import { addSingleRunOptions, formatRunTable, reportRunFailure, writeRunOutputs, type SingleRunFlags } from './output.js';
import { warnAbout } from './warnings.js';
import { addScenarioOptions, parseVariant, scenarioFromOptions } from './scenarioOptions.js';

interface PredictFlags extends SingleRunFlags {
  models?: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('predict')
    .description('solve the fluid (delay-differential) model of one scenario and variant, with closed-form predictions');
  addSingleRunOptions(addScenarioOptions(cmd))
    .option('--models <dir>', "directory of fluid model files (default: the repository's models/)")
    .action(async (opts: PredictFlags) => {
      const scenario = scenarioFromOptions(opts, opts.variant === undefined ? undefined : parseVariant(opts.variant));
      if (opts.out) checkOutDir(opts.out, '--out');
      warnAbout([scenario]);
      const { loadFluid, loadClosedForms, prepareFluidModels } = await import('../engines.js');
      const modelsDir = opts.models === undefined ? undefined : resolve(opts.models);
      const [runFluid, closedForms] = await Promise.all([loadFluid(), loadClosedForms(), prepareFluidModels(flowVariants(scenario), { modelsDir })]);
      const result = runFluid(scenario, modelsDir === undefined ? {} : { modelsDir });
      const closedForm = closedForms(scenario).filter((c) => c.appliesTo.includes(scenario.variant));
      if (opts.out) writeRunOutputs(opts.out, result);
      // A failed solve prints its reason and NaN numbers: never exit 0 with them (--json too).
      reportRunFailure(result);
      if (opts.json) {
        process.stdout.write(JSON.stringify({ ...summaryJson(result), closedForm }) + '\n');
        return;
      }
      const lines = [formatRunTable(result), '', 'closed forms:'];
      for (const c of closedForm) {
        const value = c.cwndSegments === null || c.goodputBps === null ? 'n/a' : `${c.cwndSegments.toFixed(2)} segments, ${formatRate(c.goodputBps)}`;
        lines.push(`  ${c.title}: ${value}${c.note ? ` (${c.note})` : ''}`);
        if (!c.validity.valid) lines.push(`    outside its validity: ${c.validity.reasons.join('; ')}`);
      }
      if (closedForm.length === 0) lines.push('  none applies to this variant');
      process.stdout.write(lines.join('\n') + '\n');
    });
}
