/**
 * Where each quantity of the fluid system lives, for the generated code (compileSystem.ts) and for the
 * engine that reads results out of it:
 * - Y, the state: [bottleneck states | block 0's flow states | block 1's | ...]; block g starts at `off(g)`.
 * - Z, the snapshot of derived values at one time: [delay, A, bottleneck outputs | per block: R, flow
 *   outputs]; block g's part starts at `zo(g)`. A is the aggregate arrival rate, R = Tp + delay.
 * A block is one flow model's state, standing for one flow or for a group of identical flows; blocks
 * may come from different models (mixed variants), so each has its own size.
 */
export interface BlockShape {
  /** State names in declaration order. */
  states: readonly string[];
  /** Output names in declaration order. */
  outputs: readonly string[];
}

/** Index in Z of the queueing delay. */
export const Z_DELAY = 0;
/** Index in Z of the aggregate arrival rate A. */
export const Z_A = 1;
/** Index in Z of the bottleneck's first output. */
export const Z_BN = 2;

export class StateLayout {
  /** Length of Y. */
  readonly n: number;
  /** Length of Z. */
  readonly zSize: number;
  /** Number of flow blocks. */
  readonly blocks: number;
  /** Bottleneck states (they come first in Y). */
  readonly nb: number;
  private readonly offs: Int32Array;
  private readonly zos: Int32Array;

  constructor(
    readonly bottleneck: BlockShape,
    readonly flows: readonly BlockShape[],
  ) {
    this.nb = bottleneck.states.length;
    this.blocks = flows.length;
    this.offs = new Int32Array(flows.length);
    this.zos = new Int32Array(flows.length);
    let y = this.nb;
    let z = Z_BN + bottleneck.outputs.length;
    flows.forEach((f, g) => {
      this.offs[g] = y;
      this.zos[g] = z;
      y += f.states.length;
      z += 1 + f.outputs.length;
    });
    this.n = y;
    this.zSize = z;
  }

  /** Start of block g in Y (the generated code's `off`). */
  off(g: number): number {
    return this.offs[g]!;
  }

  /** Start of block g in Z (the generated code's `zo`): its R, then its outputs. */
  zo(g: number): number {
    return this.zos[g]!;
  }

  /** Index in Y of bottleneck state `name`, or -1. */
  yBottleneck(name: string): number {
    return this.bottleneck.states.indexOf(name);
  }

  /** Index in Z of a bottleneck output, or of `delay` and `A`; -1 if there is none of that name. */
  zBottleneck(name: string): number {
    if (name === 'delay') return Z_DELAY;
    if (name === 'A') return Z_A;
    const k = this.bottleneck.outputs.indexOf(name);
    return k < 0 ? -1 : Z_BN + k;
  }

  /** Index in Y of state `name` of block g, or -1. */
  yFlow(g: number, name: string): number {
    const k = this.flows[g]!.states.indexOf(name);
    return k < 0 ? -1 : this.offs[g]! + k;
  }

  /** Index in Z of output `name` of block g (`R` too), or -1. */
  zFlow(g: number, name: string): number {
    if (name === 'R') return this.zos[g]!;
    const k = this.flows[g]!.outputs.indexOf(name);
    return k < 0 ? -1 : this.zos[g]! + 1 + k;
  }

  /** Index in Z of block g's k-th output. */
  zOutput(g: number, k: number): number {
    return this.zos[g]! + 1 + k;
  }
}
