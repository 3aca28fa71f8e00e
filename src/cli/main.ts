import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { EXIT_BAD_INPUT, EXIT_INTERNAL, InputError } from '../errors.js';
import { COMMANDS, isCommandName, moduleOf, type CommandName } from './commands.js';

/**
 * The `cclab` command: a thin layer over the library. Each subcommand lives in its own module and
 * registers itself; this file only wires them and turns errors into the CLI contract: bad input is
 * one line on stderr and exit code 2, never a stack trace.
 */
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * The program with every command defined in full (`only` undefined), only one of them (a name), or
 * none (null): the others as their name and description, enough for `cclab --help`.
 */
export async function buildProgram(only?: CommandName | null): Promise<Command> {
  const program = new Command('cclab')
    .description('TCP congestion control lab: packet simulator, fluid models, comparison reports and sweeps')
    .version(pkg.version)
    .configureOutput({ outputError: commanderError })
    .exitOverride();
  const names = Object.keys(COMMANDS) as CommandName[];
  const full = (name: CommandName) => only === undefined || (only !== null && moduleOf(name) === moduleOf(only));
  for (const name of names) {
    if (!full(name)) program.command(name).description(COMMANDS[name].description);
    else if (moduleOf(name) === name) (await COMMANDS[name].load()).register(program); // also defines the commands `with` it
  }
  for (const cmd of program.commands) cmd.exitOverride().configureOutput({ outputError: commanderError });
  return program;
}

/** The command an argv runs (`cclab help X` runs X's help); undefined for the top level. */
function requested(argv: readonly string[]): CommandName | undefined {
  const args = argv.slice(2);
  const first = args.find((a) => !a.startsWith('-'));
  const name = first === 'help' ? args[args.indexOf('help') + 1] : first;
  return isCommandName(name) ? name : undefined;
}

/**
 * Commander's own errors (unknown option, missing argument) in the CLI's form: one line with the
 * `cclab:` prefix, its hint ("Did you mean ...?") on the same line, and where to find the usage.
 */
function commanderError(message: string, write: (s: string) => void): void {
  const text = message.trim().split('\n').map((l) => l.trim()).filter((l) => l !== '').join(' ');
  write(`cclab: ${text.startsWith('error: ') ? text : `error: ${text}`} (run cclab --help for usage)\n`);
}

export async function main(argv: string[]): Promise<number> {
  // The command run is loaded in full; `cclab --help` (no command) loads none; an unknown command all
  // (commander then names it and suggests the nearest).
  const first = argv.slice(2).find((a) => !a.startsWith('-'));
  const program = await buildProgram(requested(argv) ?? (first === undefined || first === 'help' ? null : undefined));
  // A command may set an exit code of its own (e.g. a failed fluid run, a sweep with failed runs);
  // start from none, so a second call in one process (tests) does not see the first one's.
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await program.parseAsync(argv);
    return Number(process.exitCode ?? 0);
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version are not errors; commander already printed them.
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return EXIT_BAD_INPUT;
    }
    if (e instanceof InputError) {
      process.stderr.write(`cclab: error: ${e.message}\n`);
      return EXIT_BAD_INPUT;
    }
    const err = e as Error;
    process.stderr.write(`cclab: internal error: ${err.message}${process.env.CCLAB_DEBUG ? `\n${err.stack}` : ' (set CCLAB_DEBUG=1 for details)'}\n`);
    return EXIT_INTERNAL;
  } finally {
    process.exitCode = before;
  }
}
