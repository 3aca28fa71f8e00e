import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { InputError } from '../errors.js';

const requireHere = createRequire(import.meta.url);

/**
 * yaml's `parse`, loaded on first use: importing the package costs 50-70 ms, more than the rest of
 * `cclab --help`, and most commands read no YAML (presets are code).
 */
export function parseYaml(text: string): unknown {
  return (requireHere('yaml') as typeof import('yaml')).parse(text);
}

/**
 * A user's data file (scenario, recipe): JSON by its extension, YAML otherwise. What cannot be parsed
 * is an InputError on the file naming the format and the parser's first line; nesting deeper than the
 * parser's stack (yaml recurses per level) is said as such instead of as a stack overflow.
 */
export function parseDataFile(text: string, source: string): unknown {
  const format = extname(source).toLowerCase() === '.json' ? 'JSON' : 'YAML';
  try {
    return format === 'JSON' ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0] ?? '';
    const where = /at line \d+, column \d+/.exec(msg)?.[0];
    if (e instanceof RangeError || msg.startsWith('Maximum call stack size exceeded')) {
      throw new InputError('(file)', `is not valid ${format}: nested too deeply${where ? ` (${where})` : ''}; scenario and recipe files need a few levels`, source);
    }
    throw new InputError('(file)', `is not valid ${format}: ${msg}`, source);
  }
}
