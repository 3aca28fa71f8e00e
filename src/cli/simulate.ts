import type { Command } from 'commander';
import { COMMANDS } from './commands.js';
import { summaryJson } from '../result/summaryJson.js';
import { warnAbout } from './warnings.js';
import { addScenarioOptions, parseVariant, scenarioFromOptions } from './scenarioOptions.js';
import { checkOutDir } from '../io/outDir.js';
import { addSingleRunOptions, formatRunTable, reportRunFailure, writeRunOutputs, type SingleRunFlags } from './output.js';

interface SimulateFlags extends SingleRunFlags {
  printScenario?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('simulate')
    .description(COMMANDS.simulate.description);
  addSingleRunOptions(addScenarioOptions(cmd))
    .option('--print-scenario', 'print the resolved scenario as JSON and exit without running')
    .action(async (opts: SimulateFlags) => {
      const scenario = scenarioFromOptions(opts, opts.variant === undefined ? undefined : parseVariant(opts.variant));
      if (opts.out && !opts.printScenario) checkOutDir(opts.out, '--out');
      warnAbout([scenario], opts);
      if (opts.printScenario) {
        process.stdout.write(JSON.stringify(scenario, null, 2) + '\n');
        return;
      }
      // Loaded on use so that `cclab --help` and other commands start fast.
      const runPacket = await (await import('../engines.js')).loadPacket();
      const result = runPacket(scenario);
      if (opts.out) writeRunOutputs(opts.out, result);
      process.stdout.write((opts.json ? JSON.stringify(summaryJson(result)) : formatRunTable(result)) + '\n');
      reportRunFailure(result);
    });
}
