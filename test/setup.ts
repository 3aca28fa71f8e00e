import { afterAll } from 'vitest';
import { removeTempDirs } from './helpers/tmp.js';

// Runs before each test file (vitest's setupFiles), in both tiers: the file's temp folders go when it ends.
afterAll(removeTempDirs);
