import { createHash } from 'node:crypto';
import { canonicalJson } from './hash.js';

/**
 * Seed of replication `rep` at one grid point, derived from the sweep seed alone:
 * the first 31 bits of sha256(canonical [sweepSeed, point, rep]). Deterministic (a re-run or another
 * shard gets the same seed), distinct across points and replications with overwhelming probability,
 * and independent of grid order, so extending a grid keeps the old points' seeds (and cache hits).
 *
 * The seed does not depend on the variant or engine: all variants at a point and replication see
 * the same random-loss stream (common random numbers), which makes "which variant wins here" a
 * paired comparison with less noise.
 */
export function deriveSeed(sweepSeed: number, point: Readonly<Record<string, unknown>>, rep: number): number {
  const digest = createHash('sha256').update(canonicalJson([sweepSeed, point, rep])).digest();
  // 31 bits keeps the seed a positive int32 for any PRNG; 0 is avoided as some PRNGs treat it specially.
  return digest.readUInt32BE(0) & 0x7fffffff || 1;
}
