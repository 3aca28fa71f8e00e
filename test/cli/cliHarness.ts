/** Moved to test/helpers/cli.ts (the tests' one CLI runner); this re-export keeps tests written against the old path working. */
export * from '../helpers/cli.js';
