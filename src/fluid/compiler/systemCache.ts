import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InputError } from '../../errors.js';
import { writeFileAtomic } from '../../io/atomicWrite.js';
import { PACKAGE_ROOT } from '../../io/packageRoot.js';
import { sourceClosure } from '../../io/sourceClosure.js';
import { assembleSystem, type CompiledSystem, type SystemParts } from './assemble.js';

/**
 * Compiled fluid systems (bottleneck + one flow model), loaded per model on first use and cached on
 * disk keyed by content. Compiling needs mathjs, whose import alone costs 0.6-1.5 s, twenty times the
 * rest of a `cclab predict`; a cached system is read back as plain JSON and its generated code turned
 * into functions without loading mathjs. The key is a hash of the two model files' bytes and of the
 * compiler's own source files, so editing a model or the compiler recompiles exactly what changed.
 *
 * Models are compiled one at a time, so a broken `models/westwood.model.yaml` fails only runs of
 * westwood (with an error naming the file and line), never runs of the other variants.
 */

/** The repository's `models/` directory. */
export const DEFAULT_MODELS_DIR = join(PACKAGE_ROOT, 'models');
/** The shared bottleneck's file name inside a models directory (drop-tail and RED). */
export const BOTTLENECK_FILE = 'bottleneck.model.yaml';
/** The default bottleneck model's id; a queue discipline's own model is `bottleneck-<kind>.model.yaml`. */
export const DEFAULT_BOTTLENECK = 'bottleneck';

/** Whether a file in a models directory is a bottleneck model (the default one or a discipline's). */
export const isBottleneckFile = (f: string): boolean => f === BOTTLENECK_FILE || (f.startsWith('bottleneck-') && f.endsWith('.model.yaml'));
/** Where compiled systems are kept unless a caller says otherwise (git-ignored). */
export const DEFAULT_SYSTEM_CACHE_DIR = join(PACKAGE_ROOT, '.cache', 'models');

/** What a fluid run needs from a set of models: the compiled system of one flow model on one bottleneck model. */
export interface SystemSource {
  readonly dir: string;
  /** `bottleneck`: the bottleneck model's id (default {@link DEFAULT_BOTTLENECK}; `bottleneck-pie` for PIE...). */
  system(id: string, bottleneck?: string): CompiledSystem;
}

/** Compiles one flow model against the bottleneck (compileFiles.ts registers the in-process one). */
export type Compiler = (bottleneckPath: string, flowPath: string) => SystemParts;

let inProcessCompiler: Compiler | undefined;

/** Called by compileFiles.ts when it is loaded: from then on misses compile in this process. */
export function registerCompiler(c: Compiler): void {
  inProcessCompiler = c;
}

/**
 * Runs `f` as a process that has not loaded the compiler would (misses compile in a child process),
 * then puts the registered compiler back: for tests that share one module graph with files that
 * loaded it.
 */
export function withoutInProcessCompiler<T>(f: () => T): T {
  const registered = inProcessCompiler;
  inProcessCompiler = undefined;
  try {
    return f();
  } finally {
    inProcessCompiler = registered;
  }
}

const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const COMPILER_FILE = fileURLToPath(new URL(`./compileFiles${EXT}`, import.meta.url));

let compilerVersion: string | undefined;

/** Hash of every source file the compiler is made of (this module's own siblings, .ts or .js). */
function compilerHash(): string {
  if (compilerVersion === undefined) {
    const h = createHash('sha256');
    for (const f of sourceClosure(COMPILER_FILE).sort()) h.update(f.slice(PACKAGE_ROOT.length)).update('\0').update(readFileSync(f)).update('\0');
    compilerVersion = h.digest('hex');
  }
  return compilerVersion;
}

/** Flow model ids with a file in `dir` (every `<id>.model.yaml` except the bottleneck). */
export function modelFileIds(dir: string): string[] {
  checkDir(dir); // a missing folder (`cclab list models --models x`) is bad input, not a crash
  return readdirSync(dir)
    .filter((f) => f.endsWith('.model.yaml') && !isBottleneckFile(f))
    .map((f) => f.slice(0, -'.model.yaml'.length))
    .sort();
}

function checkDir(dir: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError('models', `folder not found: ${dir}`);
  if (!existsSync(join(dir, BOTTLENECK_FILE))) throw new InputError('models', `${BOTTLENECK_FILE} is missing`, dir);
}

/** Bottleneck model ids with a file in `dir`: `bottleneck` and each discipline's `bottleneck-<kind>`. */
export function bottleneckFileIds(dir: string): string[] {
  checkDir(dir);
  return readdirSync(dir)
    .filter(isBottleneckFile)
    .map((f) => f.slice(0, -'.model.yaml'.length))
    .sort();
}

/** What the compiler script prints per flow model: the parts, or the InputError it threw. */
export type CompileReply = { parts: SystemParts } | { error: { field: string; problem: string; source?: string } };

/**
 * Compiles in a child process: used only when the compiler is not loaded in this one and the
 * caller needs a system synchronously (the library's `runFluid`), so that a miss does not make
 * every later run in this process pay mathjs's import. One child compiles several models.
 */
function compileInChild(bottleneckPath: string, flowPaths: readonly string[]): CompileReply[] {
  const { script, execArgv } = compilerScript();
  const out = execFileSync(process.execPath, [...execArgv, script, bottleneckPath, ...flowPaths], { encoding: 'utf8', maxBuffer: 256 << 20 });
  return parseParts(out) as CompileReply[];
}

/**
 * The compiler script a child runs. From the TypeScript sources (tests, tsx scripts) it is dist/'s
 * compiled copy when every file of the compiler's closure is built there and none is older than its
 * source (the rule bin/cclab.js applies to the whole CLI): the same code, started without tsx
 * transpiling it (3.2 instead of 6.0 CPU-s for the 14 models of models/). Else this module's
 * sibling, through tsx when it is TypeScript.
 */
function compilerScript(): { script: string; execArgv: string[] } {
  if (EXT === '.js') return { script: COMPILER_FILE, execArgv: [] };
  const src = join(PACKAGE_ROOT, 'src') + sep;
  const built = (f: string) => join(PACKAGE_ROOT, 'dist', f.slice(src.length).replace(/\.ts$/, '.js'));
  const fresh = sourceClosure(COMPILER_FILE).every((f) => f.startsWith(src) && existsSync(built(f)) && statSync(built(f)).mtimeMs >= statSync(f).mtimeMs);
  if (fresh) return { script: built(COMPILER_FILE), execArgv: [] };
  return { script: COMPILER_FILE, execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] };
}

/** JSON with the non-finite numbers ModelFile uses (unbounded parameter ranges). */
export function stringifyParts(x: unknown): string {
  return JSON.stringify(x, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? { $number: String(v) } : v));
}

function parseParts(text: string): unknown {
  return JSON.parse(text, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && '$number' in v && Object.keys(v).length === 1 ? Number((v as { $number: string }).$number) : v,
  );
}

export interface SystemSourceOptions {
  /** Directory of compiled systems; null keeps them in memory only. Default {@link DEFAULT_SYSTEM_CACHE_DIR}. */
  cacheDir?: string | null;
}

const memo = new Map<string, CompiledSystem>();

/** Where systems came from in this process (tests and benchmarks read it). */
export const systemStats = { memory: 0, disk: 0, compiledHere: 0, compiledInChild: 0 };
let warnedUnwritable = false;

interface Located {
  bottleneckPath: string;
  flowPath: string;
  memoKey: string;
  /** The cache file, or null without a disk cache. */
  file: string | null;
}

/** Checks that `dir` has the model and computes its content key. */
function locate(dir: string, id: string, cacheDir: string | null, bottleneck: string = DEFAULT_BOTTLENECK): Located {
  if (!/^[a-z][a-z0-9-]*$/.test(id)) throw new InputError('variant', `must be a lowercase model id, got '${id}'`);
  checkDir(dir);
  const bottleneckPath = join(dir, `${bottleneck}.model.yaml`);
  if (!isBottleneckFile(`${bottleneck}.model.yaml`) || !existsSync(bottleneckPath)) {
    throw new InputError('bottleneck.queue.kind', `has no fluid queue model '${bottleneck}.model.yaml' in ${dir}`);
  }
  const flowPath = join(dir, `${id}.model.yaml`);
  if (!existsSync(flowPath)) throw new InputError('variant', `has no fluid model '${id}' in ${dir} (have: ${modelFileIds(dir).join(', ') || 'none'})`);
  const key = createHash('sha256')
    .update(compilerHash())
    .update('\0')
    .update(readFileSync(bottleneckPath))
    .update('\0')
    .update(readFileSync(flowPath))
    .digest('hex')
    .slice(0, 32);
  const stem = bottleneck === DEFAULT_BOTTLENECK ? id : `${id}+${bottleneck}`;
  return { bottleneckPath, flowPath, memoKey: `${key}\0${bottleneckPath}\0${flowPath}`, file: cacheDir === null ? null : join(cacheDir, `${stem}-${key}.json`) };
}

function assembleAt(loc: Located, parts: SystemParts): CompiledSystem {
  // The cached file may have been compiled from a copy at another path: report this one.
  const system = assembleSystem({ ...parts, bottleneck: { ...parts.bottleneck, path: loc.bottleneckPath }, flow: { ...parts.flow, path: loc.flowPath } });
  memo.set(loc.memoKey, system);
  return system;
}

/** The system from memory or from the disk cache; undefined when it must be compiled. */
function cachedSystem(loc: Located): CompiledSystem | undefined {
  const hit = memo.get(loc.memoKey);
  if (hit) {
    systemStats.memory++;
    return hit;
  }
  if (loc.file !== null && existsSync(loc.file)) {
    systemStats.disk++;
    return assembleAt(loc, parseParts(readFileSync(loc.file, 'utf8')) as SystemParts);
  }
  return undefined;
}

function store(loc: Located, parts: SystemParts): CompiledSystem {
  if (loc.file !== null) {
    try {
      writeFileAtomic(loc.file, stringifyParts(parts));
    } catch (e) {
      // A read-only install still runs, compiling on each call; say so once.
      if (!warnedUnwritable) process.emitWarning(`cannot write the fluid model cache (${(e as Error).message}); models are compiled on every call`);
      warnedUnwritable = true;
    }
  }
  return assembleAt(loc, parts);
}

function compileAndStore(loc: Located): CompiledSystem {
  systemStats.compiledHere++;
  return store(loc, inProcessCompiler!(loc.bottleneckPath, loc.flowPath));
}

/**
 * Without the compiler in this process: compile `wanted` and every other uncached model of its
 * directory in one child process (one start-up and one mathjs import for all), store those that
 * compile, and return `wanted`'s system or throw its error.
 */
function compileDirInChild(dir: string, wanted: Located, cacheDir: string | null): CompiledSystem {
  const others: Located[] = [];
  const bottleneck = basename(wanted.bottleneckPath, '.model.yaml');
  for (const id of modelFileIds(dir)) {
    const loc = locate(dir, id, cacheDir, bottleneck);
    if (loc.memoKey !== wanted.memoKey && cachedSystem(loc) === undefined) others.push(loc);
  }
  const batch = [wanted, ...others];
  systemStats.compiledInChild += batch.length;
  const replies = compileInChild(wanted.bottleneckPath, batch.map((l) => l.flowPath));
  let result: CompiledSystem | undefined;
  let error: InputError | undefined;
  replies.forEach((r, i) => {
    if ('parts' in r) {
      const s = store(batch[i]!, r.parts);
      if (i === 0) result = s;
    } else if (i === 0) error = new InputError(r.error.field, r.error.problem, r.error.source);
  });
  if (error) throw error;
  return result!;
}

function cacheDirOf(opts: SystemSourceOptions): string | null {
  return opts.cacheDir === undefined ? DEFAULT_SYSTEM_CACHE_DIR : opts.cacheDir;
}

/** The models in `dir` (default the repository's models/), each compiled on first use. */
export function modelSystems(dir: string = DEFAULT_MODELS_DIR, opts: SystemSourceOptions = {}): SystemSource {
  const abs = resolve(dir);
  const cacheDir = cacheDirOf(opts);
  return {
    dir: abs,
    system(id, bottleneck) {
      const loc = locate(abs, id, cacheDir, bottleneck);
      return cachedSystem(loc) ?? (inProcessCompiler ? compileAndStore(loc) : compileDirInChild(abs, loc, cacheDir));
    },
  };
}

/**
 * Compiles the systems of `ids` (on every bottleneck model of `dir`, or on `bottlenecks`) that are in neither memory nor the disk cache, loading the compiler
 * into this process (an async import) instead of a child process: what a CLI command calls before
 * its runs. Throws the InputError `system(id)` would (missing or broken model files).
 */
export async function prepareSystems(dir: string, ids: readonly string[], opts: SystemSourceOptions = {}, bottlenecks?: readonly string[]): Promise<void> {
  const abs = resolve(dir);
  const cacheDir = cacheDirOf(opts);
  const missing = (bottlenecks ?? bottleneckFileIds(abs)).flatMap((b) => ids.map((id) => locate(abs, id, cacheDir, b))).filter((loc) => cachedSystem(loc) === undefined);
  if (missing.length === 0) return;
  await import('./compileFiles.js');
  for (const loc of missing) compileAndStore(loc);
}
