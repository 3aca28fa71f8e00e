/**
 * `node --import tsx --import ./bench/dist.mjs bench/run.ts`: the bench's imports of src/ load
 * dist/ (bench/dist-hooks.mjs says why). CCLAB_BENCH_SRC=1 leaves them on the sources (tsx), to
 * measure what the compiled build saves.
 */
import { register } from 'node:module';

if (process.env.CCLAB_BENCH_SRC === undefined) {
  register('./dist-hooks.mjs', import.meta.url);
  process.env.CCLAB_BENCH_CODE = 'dist/ (compiled)';
}
