import { readFileSync, statSync, type Stats } from 'node:fs';
import { InputError } from '../errors.js';

/**
 * Reads a file the user named (scenario, model, recipe) as UTF-8 text, refusing before reading
 * anything that is not a regular file (a link to /dev/zero or a FIFO would be read forever) or is
 * larger than `maxBytes` (a parser would spend minutes and gigabytes on it).
 *
 * @param field what to name in the error: the flag (`--scenario`) or the recipe field.
 * @throws InputError `field cannot read file 'path' (ENOENT)`, `... is not a regular file`, `... is N bytes`.
 */
export function readUserFile(path: string, field: string, maxBytes: number, source?: string): string {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new InputError(field, `'${path}' is not a regular file (${kindOf(st)}); give a .json or .yaml file`, source);
    size = st.size;
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(field, `cannot read file '${path}' (${(e as NodeJS.ErrnoException).code ?? 'error'})`, source);
  }
  if (size > maxBytes) throw new InputError(field, `'${path}' is ${size} bytes, more than the ${maxBytes} bytes accepted`, source);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(field, `cannot read file '${path}' (${(e as NodeJS.ErrnoException).code ?? 'error'})`, source);
  }
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isFIFO()) return 'a pipe';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}
