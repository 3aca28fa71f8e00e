/**
 * Node's arguments for a bench part that runs its points in child processes (one process per point,
 * so that one point's heap and JIT state do not reach the next): tsx, and bench/dist.mjs when this
 * process loads the compiled dist/ (`npm run bench`; bench/dist-hooks.mjs), so that the children
 * measure the same code as their parent.
 */
export function childNodeArgs(): string[] {
  const hook = new URL('./dist.mjs', import.meta.url).href;
  return ['--import', 'tsx', ...(process.env.CCLAB_BENCH_CODE !== undefined ? ['--import', hook] : [])];
}
