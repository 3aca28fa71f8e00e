/**
 * A problem with what the user gave us (flag, scenario file, model file, recipe). The CLI prints
 * `message` as one line and exits with code 2; no stack trace. Throw it only at input boundaries.
 */
export class InputError extends Error {
  constructor(
    /** Dotted path of the offending field, e.g. `bottleneck.bandwidthBps` or `--loss`. */
    readonly field: string,
    /** What was wrong and what is accepted, e.g. `must be in [0, 1), got 1.5`. */
    readonly problem: string,
    /** Where it came from (file name, flag), when known. */
    readonly source?: string,
  ) {
    super(`${source ? `${source}: ` : ''}${field} ${problem}`);
    this.name = 'InputError';
  }
}

/** Exit code for bad input (usage errors), as the CLI contract promises. */
export const EXIT_BAD_INPUT = 2;
