import type { Command } from 'commander';
import { summaryJson } from '../result/summaryJson.js';
import { formatRate } from '../units.js';
import { addSingleRunOptions, formatRunTable, writeRunOutputs, type SingleRunFlags } from './output.js';
import { addScenarioOptions, parseVariant, scenarioFromOptions } from './scenarioOptions.js';

type PredictFlags = SingleRunFlags;

export function register(program: Command): void {
  const cmd = program
    .command('predict')
    .description('solve the fluid (delay-differential) model of one scenario and variant, with closed-form predictions');
  addSingleRunOptions(addScenarioOptions(cmd))
    .action(async (opts: PredictFlags) => {
      const scenario = scenarioFromOptions(opts, opts.variant === undefined ? undefined : parseVariant(opts.variant));
      const [{ runFluid }, { closedForms }] = await Promise.all([import('../fluid/run.js'), import('../theory/closedForms.js')]);
      const result = runFluid(scenario);
      const closedForm = closedForms(scenario).filter((c) => c.appliesTo.includes(scenario.variant));
      if (opts.out) writeRunOutputs(opts.out, result);
      // A failed solve prints its reason and NaN numbers: never exit 0 with them (--json too).
      if (result.status === 'failed') process.exitCode = 1;
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
