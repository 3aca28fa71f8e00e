import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../scenario/types.js';
import type { Engine } from '../variants.js';
import { writeFileAtomic } from '../io/atomicWrite.js';
import { asUserIo } from '../io/outDir.js';
import { isCompactRun, type CompactRun } from './compact.js';
import { hashOf } from './hash.js';

/** Fields of the cache key; the key is the sha256 of their canonical JSON. */
export interface CacheKeyParts {
  scenario: Scenario;
  engine: Engine;
  seed: number;
  /** Model/code version of the engine (see engineCodeVersion). */
  codeVersion: string;
  /** Fluid runs with Poisson loss events (absent otherwise, so the keys of every other run are unchanged). */
  lossProcess?: 'poisson';
}

/**
 * Content address of a run: any change to any scenario field, the engine, the seed or the code gives
 * a new key, except `trace` (how many trace points to keep): a sweep keeps no traces and summaries
 * do not depend on it (test/sweep/e2e.test.ts checks both engines), so it is left out and sweeps
 * run with the smallest trace (see SWEEP_TRACE_POINTS).
 */
export function cacheKey(parts: CacheKeyParts): string {
  const { trace: _trace, ...scenario } = parts.scenario;
  return hashOf({ scenario, engine: parts.engine, seed: parts.seed, codeVersion: parts.codeVersion, ...(parts.lossProcess ? { lossProcess: parts.lossProcess } : {}) });
}

/** A cached record: the result plus the key's inputs, so a file is self-describing and checkable. */
interface CacheRecord {
  key: string;
  engine: Engine;
  codeVersion: string;
  scenario: Scenario;
  result: CompactRun;
}

/** Says that a cache entry was unusable and is recomputed (default: one warning line on stderr). */
export type CorruptEntryHandler = (path: string, why: string) => void;

const warnCorrupt: CorruptEntryHandler = (path, why) => process.stderr.write(`cclab: warning: cache entry ${path} is corrupted (${why}); recomputing it\n`);

/**
 * Content-addressed store of finished runs: `<dir>/<aa>/<key>.json`, where `aa` is the key's first
 * two hex digits (keeps directories small on big sweeps). Each file is written atomically (a temp
 * file in the same folder, then rename), so a reader sees it complete or not at all; a stray temp
 * file from a killed writer is never read. Concurrent writers (shards of a job array on a shared
 * filesystem, two users) are safe: the same key always holds the same content, and the last rename
 * wins. An entry that is nevertheless unusable (truncated by a full disk, edited by hand, another
 * key's record) is not trusted: it is a miss, said once, and the recomputed run replaces it.
 */
export class RunCache {
  hits = 0;
  misses = 0;
  /** Entries found unusable (each recomputed). */
  corrupted = 0;

  constructor(
    readonly dir: string,
    private readonly onCorrupt: CorruptEntryHandler = warnCorrupt,
  ) {}

  pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The cached result, or undefined when absent or unusable (an unusable entry is reported, a miss, and rewritten). */
  get(key: string): CompactRun | undefined {
    const p = this.pathOf(key);
    if (!existsSync(p)) {
      this.misses++;
      return undefined;
    }
    const text = asUserIo('--cache', () => readFileSync(p, 'utf8'));
    let rec: Partial<CacheRecord> | undefined;
    let why = '';
    try {
      rec = JSON.parse(text) as Partial<CacheRecord>;
    } catch (e) {
      // Only unparsable JSON is a miss that the next put replaces; an error reading the file
      // (permissions, a directory in its place) surfaces.
      if (!(e instanceof SyntaxError)) throw e;
      why = text.length === 0 ? 'empty file' : `not JSON: ${e.message}`;
    }
    if (rec?.key === key && isCompactRun(rec.result)) {
      this.hits++;
      return rec.result;
    }
    if (!why) why = rec?.key !== key ? `holds key ${typeof rec?.key === 'string' ? rec.key.slice(0, 12) : String(rec?.key)}...` : 'not a run result';
    this.corrupted++;
    this.onCorrupt(p, why);
    this.misses++;
    return undefined;
  }

  put(parts: CacheKeyParts, key: string, result: CompactRun): void {
    const rec: CacheRecord = { key, engine: parts.engine, codeVersion: parts.codeVersion, scenario: parts.scenario, result };
    asUserIo('--cache', () => writeFileAtomic(this.pathOf(key), JSON.stringify(rec)));
  }
}
