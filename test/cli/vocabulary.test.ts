import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { buildProgram } from '../../src/cli/main.js';
import { cli } from '../helpers/cli.js';

/**
 * Issue 22, one vocabulary: walks every option of every command (commander's own tables, so a flag a
 * helper adds later is checked too) and holds them to the rules a user relies on:
 * - a flag with one name means one thing: the same arity (switch or value) and the same value
 *   placeholder on every command, except that a grid command takes a range (`<range>`) of the quantity;
 * - every visible option that takes a value says its default (commander's, or "default" in its help);
 * - one word each: "folder" (never "directory") in help, `--reps` for replications (never `--seeds`);
 * - a whole-number flag (`<n>`) given `abc` answers "must be a whole number", not "a decimal number".
 */

interface Seen {
  command: string;
  long: string;
  flags: string;
  boolean: boolean;
  placeholder: string;
  description: string;
  hasDefault: boolean;
  hidden: boolean;
}

function optionsOf(cmd: Command): Seen[] {
  return (cmd.options as Option[]).map((o) => ({
    command: cmd.name(),
    long: o.long!,
    flags: o.flags,
    boolean: !o.required && !o.optional,
    placeholder: /<[^>]+>|\[[^\]]+\]/.exec(o.flags)?.[0] ?? '',
    description: o.description,
    // A default by commander, in the help text, or none needed: the flag is required.
    hasDefault: o.defaultValue !== undefined || o.defaultValueDescription !== undefined || o.mandatory || /default|required/i.test(o.description),
    hidden: o.hidden,
  }));
}

let all: Seen[] = [];
beforeAll(async () => {
  const program = await buildProgram();
  all = program.commands.flatMap(optionsOf);
});

describe('one CLI vocabulary (issue 22)', () => {
  it('walks every command', () => {
    const walked = new Set(all.map((o) => o.command));
    for (const name of Object.keys(COMMANDS)) expect(walked.has(name), name).toBe(true);
    expect(all.length).toBeGreaterThan(100);
  });

  it('a flag with one name has one arity and one placeholder everywhere (a grid command may take a <range> of it)', () => {
    const byName = new Map<string, Seen[]>();
    for (const o of all) byName.set(o.long, [...(byName.get(o.long) ?? []), o]);
    const clashes: string[] = [];
    for (const [long, uses] of byName) {
      if (new Set(uses.map((u) => u.boolean)).size > 1) clashes.push(`${long}: a switch on ${uses.filter((u) => u.boolean).map((u) => u.command)} but takes a value on ${uses.filter((u) => !u.boolean).map((u) => u.command)}`);
      const kinds = new Set(uses.map((u) => u.placeholder).filter((p) => p !== '<range>'));
      if (kinds.size > 1) clashes.push(`${long}: ${uses.map((u) => `${u.command} ${u.placeholder}`).join(', ')}`);
    }
    expect(clashes).toEqual([]);
  });

  it('every visible option that takes a value states its default in --help', () => {
    const silent = all.filter((o) => !o.hidden && !o.boolean && !o.hasDefault).map((o) => `${o.command} ${o.flags}`);
    expect(silent).toEqual([]);
  });

  it('one word for each thing: folder, --reps', () => {
    expect(all.filter((o) => !o.hidden && /\bdirector(y|ies)\b/i.test(o.description)).map((o) => `${o.command} ${o.long}`)).toEqual([]);
    expect(all.filter((o) => !o.hidden && o.long === '--seeds').map((o) => o.command)).toEqual([]);
    // A list of variants is --variants; one variant (the one-run commands) is --variant.
    for (const o of all.filter((x) => x.long === '--variants')) expect(o.placeholder, o.command).toBe('<list>');
    for (const o of all.filter((x) => x.long === '--variant')) expect(['simulate', 'predict']).toContain(o.command);
  });

  it('the same scenario flag has the same help text on every command that takes it', () => {
    const scenarioFlags = all.filter((o) => o.command === 'simulate').map((o) => o.long);
    const differ: string[] = [];
    for (const long of scenarioFlags) {
      const uses = all.filter((o) => o.long === long && o.placeholder !== '<range>' && ['simulate', 'predict', 'compare', 'sweep', 'report'].includes(o.command));
      if (new Set(uses.map((u) => u.description)).size > 1 && !['--out', '--json', '--seed', '--duration', '--scenario'].includes(long)) differ.push(long);
    }
    expect(differ).toEqual([]);
  });
});

describe('whole-number flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cclab-vocab-'));
  const cwd = process.cwd();
  beforeAll(() => process.chdir(dir));
  afterAll(() => process.chdir(cwd));
  /** The cheapest complete command line of each command, where a bad flag is refused before any run. */
  const BASE: Record<string, string[]> = {
    simulate: ['simulate', '--print-scenario'],
    predict: ['predict', '--duration', '1s'],
    compare: ['compare', '--duration', '1s'],
    report: ['report', '--scenarios', 'lossy', '--variants', 'reno', '--duration', '4s', '--charts', 'goodput'],
    sweep: ['sweep', '--dry-run', '--engines', 'fluid', '--variants', 'reno', '--loss', '1e-3'],
    merge: ['merge', 'nowhere', '--out', 'merged'],
    validate: ['validate', '--dry-run', '--variants', 'reno', '--loss', '1e-3', '--rtt', '10ms'],
  };
  it('every <n> flag answers abc with "must be a whole number"', async () => {
    const ints = all.filter((o) => o.placeholder === '<n>' && BASE[o.command]);
    expect(ints.length).toBeGreaterThan(8);
    const wrong: string[] = [];
    for (const o of ints) {
      const r = await cli([...BASE[o.command]!, o.long, 'abc']);
      // Refused as a count; or, for a flag that needs another (--slurm-array-size needs --slurm), for that.
      const ok = r.code === 2 && (r.stderr.includes(`${o.long} must be a whole number`) || r.stderr.includes(`${o.long} needs --`));
      if (!ok) wrong.push(`${o.command} ${o.long}: exit ${r.code}, ${r.stderr.trim()}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
