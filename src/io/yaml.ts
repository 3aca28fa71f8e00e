import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * yaml's `parse`, loaded on first use: importing the package costs 50-70 ms, more than the rest of
 * `cclab --help`, and most commands read no YAML (presets are code).
 */
export function parseYaml(text: string): unknown {
  return (requireHere('yaml') as typeof import('yaml')).parse(text);
}
