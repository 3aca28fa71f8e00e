/**
 * AssemblyScript for the wasm experiments (bench/experiments/wasm-*.ts): it is not a dependency of
 * cclab, so the folder of an install is passed (`--asc <folder>` or CCLAB_ASC), e.g.
 *   npm install --no-save --prefix /tmp/asc assemblyscript@0.28   ->   --asc /tmp/asc/node_modules/assemblyscript
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The few WebAssembly API types used here (@types/node 20 does not declare them). */
interface WasmApi {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
}
export type Fn = (...args: number[]) => number;

const HERE = fileURLToPath(new URL('./wasm/', import.meta.url));

/** The assemblyscript folder from --asc or CCLAB_ASC; exits 2 with a one-line message without it. */
export function ascFolder(experiment: string): string {
  const i = process.argv.indexOf('--asc');
  const dir = i >= 0 ? process.argv[i + 1] : process.env.CCLAB_ASC;
  if (dir === undefined) {
    console.log(`${experiment}: pass --asc <folder of an assemblyscript@0.28 install> (or CCLAB_ASC); see the header`);
    process.exit(2);
  }
  return dir;
}

/**
 * Compiles wasm/<name>.as (AssemblyScript wants .ts names) with -O3 and the stub runtime in a temp
 * dir; returns its exports. `patch` rewrites the source first (a compile-time switch); `env` adds
 * imports (functions the module declares @external("env", ...)).
 */
export async function compileAs(asc: string, name: string, patch: (source: string) => string = (x) => x, env: Record<string, Fn> = {}): Promise<Record<string, Fn>> {
  const dir = mkdtempSync(join(tmpdir(), 'cclab-wasm-'));
  try {
    writeFileSync(join(dir, `${name}.ts`), patch(readFileSync(join(HERE, `${name}.as`), 'utf8')));
    execFileSync(process.execPath, [join(asc, 'bin', 'asc.js'), join(dir, `${name}.ts`), '-O3', '--runtime', 'stub', '--noAssert', '-o', join(dir, `${name}.wasm`)], { stdio: 'inherit' });
    const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    const abort = (): never => {
      throw new Error(`${name}.as aborted`);
    };
    const { instance } = await wasm.instantiate(readFileSync(join(dir, `${name}.wasm`)), { env: { abort, ...env } });
    return instance.exports as Record<string, Fn>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
