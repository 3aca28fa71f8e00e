/**
 * The command line of a diagnostic script (the bbr3*Trace scripts): `--name value` pairs and bare
 * `--flag`s, read as given (these scripts print traces for a person to read; the CLI checks its input).
 */
const args = process.argv.slice(2);

/** The value after `--name`, if given. */
export function stringArg(name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** The number after `--name`, or `dflt`. */
export function numberArg(name: string, dflt: number): number {
  const v = stringArg(name);
  return v === undefined ? dflt : Number(v);
}

/** Whether the bare flag `--name` is given. */
export function hasFlag(name: string): boolean {
  return args.includes(`--${name}`);
}
