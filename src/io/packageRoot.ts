import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root directory (package.json, models/, .cache/): two levels above this file both in
 * the sources (src/io/) and in the compiled output (dist/io/).
 */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
