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

/**
 * Exit codes of the CLI (README.md, "Exit codes"): 2 for bad input and for user-caused I/O problems
 * (a file where a folder should be, a path that cannot be written), 3 when a run finished but
 * failed (the solver gave up, a model blew up: the result says where), 1 for an internal error (a bug).
 */
export const EXIT_BAD_INPUT = 2;
export const EXIT_RUN_FAILED = 3;
export const EXIT_INTERNAL = 1;
