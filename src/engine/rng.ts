import seedrandom from 'seedrandom';

/**
 * Seeded random streams. Every random draw of a run comes from a stream derived from
 * (scenario seed, stream name), so adding draws to one model part (e.g. RED) never shifts another's
 * (the loss pattern). Alea (seedrandom) is fast (~1.5e8 draws/s) and its output is fixed by the seed.
 */
export type Uniform = () => number;

export function rngStream(seed: number, stream: string): Uniform {
  const prng = seedrandom.alea(`cclab:${seed}:${stream}`);
  return () => prng();
}
