import type { Command } from 'commander';
import { summaryJson } from '../result/summaryJson.js';
import { addScenarioOptions, parseVariant, scenarioFromOptions, type ScenarioFlags } from './scenarioOptions.js';
import { formatRunTable, writeRunOutputs } from './output.js';

interface SimulateFlags extends ScenarioFlags {
  variant: string;
  json?: boolean;
  out?: string;
  printScenario?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('simulate')
    .description('run the packet-level simulator on one scenario and variant');
  addScenarioOptions(cmd)
    .option('--variant <id>', 'congestion control: tahoe, reno, newreno, westwood, cubic', 'reno')
    .option('--json', 'print one JSON object instead of a table')
    .option('--out <dir>', 'write result.json, summary.json, scenario.json and traces.csv to DIR')
    .option('--print-scenario', 'print the resolved scenario as JSON and exit without running')
    .action(async (opts: SimulateFlags) => {
      const scenario = scenarioFromOptions(opts, parseVariant(opts.variant));
      if (opts.printScenario) {
        process.stdout.write(JSON.stringify(scenario, null, 2) + '\n');
        return;
      }
      // Loaded on use so that `cclab --help` and other commands start fast.
      const { runPacket } = await import('../packet/run.js');
      const result = runPacket(scenario);
      if (opts.out) writeRunOutputs(opts.out, result);
      process.stdout.write((opts.json ? JSON.stringify(summaryJson(result)) : formatRunTable(result)) + '\n');
    });
}
