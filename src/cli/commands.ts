import type { Command } from 'commander';

/**
 * The commands of `cclab`: name, one-line description and the module that defines its flags and
 * action. main.ts loads only the module of the command being run (`cclab --help` loads none), so
 * a command never pays for the others' imports.
 */
export interface CommandEntry {
  description: string;
  load: () => Promise<{ register(program: Command): void }>;
  /** The command whose module also defines this one. */
  with?: string;
}

export const COMMANDS = {
  simulate: { description: 'run the packet-level simulator on one scenario and variant', load: () => import('./simulate.js') },
  predict: { description: 'solve the fluid (delay-differential) model of one scenario and variant, with closed-form predictions', load: () => import('./predict.js') },
  compare: { description: 'run the packet simulator and the fluid model on one scenario for several variants and compare them', load: () => import('./compare.js') },
  report: {
    description: 'run scenarios x variants with both engines and write a self-contained HTML report (DIR/index.html plus CSV/JSON data); without a recipe or flags: the study\'s three lines (normal, lfn, lossy) x every variant, 100 s',
    load: () => import('./report.js'),
  },
  sweep: {
    description: 'sensitivity sweep: run a grid of scenarios (loss x RTT x ...) x variants x engines x replications, with cache, workers and a report',
    load: () => import('./sweep.js'),
  },
  // Defined by sweep.ts with `sweep` (one module, two commands).
  merge: { description: 'combine the output folders of sweep shards (--shard i/N) into one folder', load: () => import('./sweep.js'), with: 'sweep' },
  list: { description: 'list presets, variants, params (the cc-params, with defaults and ranges) or models (the fluid models)', load: () => import('./list.js') },
  validate: {
    description: 'fluid models and closed forms against the packet engine over a standard loss x RTT grid: agreement table, report page and CSV',
    load: () => import('./validate.js'),
  },
} as const satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

/** The command whose module defines `name` (itself, or the one it is defined `with`). */
export function moduleOf(name: CommandName): CommandName {
  const e: CommandEntry = COMMANDS[name];
  return (e.with as CommandName | undefined) ?? name;
}

export function isCommandName(x: string | undefined): x is CommandName {
  return x !== undefined && Object.hasOwn(COMMANDS, x);
}
