import { main } from './main.js';

// Process entry for `node --import tsx src/cli/entry.ts ...` (npm scripts); bin/cclab.js does the same.
process.exitCode = await main(process.argv);
