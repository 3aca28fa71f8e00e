import type { Uniform } from '../engine/rng.js';
import { rngStream } from '../engine/rng.js';
import { flowPath } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import { secondsToNs } from '../units.js';
import { droptail } from './qdisc/droptail.js';
import { createQueueDisc } from './qdisc/registry.js';
import type { QdiscContext, QueueDisc } from './qdisc/types.js';

/** Slots per path in {@link DumbbellLayout.pathLinks}: at most 3 links (access, bottleneck, receiver access) and the -1 end. */
export const PATH_SLOTS = 4;

/** Creates one link (one direction, one queue) and returns its id; the Dumbbell owns the links. */
export type AddLink = (name: string, bandwidthBps: number, delayNs: number, makeQdisc: (ctx: QdiscContext) => QueueDisc, uniform: Uniform) => number;

/** Which links a scenario's dumbbell has and which of them each packet crosses. */
export interface DumbbellLayout {
  bottleneckForward: number;
  bottleneckReverse: number;
  /**
   * Every path in one array: path 2i (flow i's data) and 2i + 1 (its ACKs) are the link ids at
   * PATH_SLOTS * path, ended by -1. One array instead of one per path: a hop reads a slot of it
   * instead of a path object, its header and then its elements (3 cache lines with 1000 flows).
   */
  pathLinks: Int32Array;
  /**
   * The queue the run traces: the slowest forward link on flow 0's path, where packets wait. That is
   * the bottleneck link unless an access link is slower (as on the ns-3 presets `normal` and `lfn`,
   * whose 10 Mbit/s access link is the real bottleneck); ties go to the bottleneck.
   */
  tracedQueueLink: number;
}

/**
 * The dumbbell's links, created through `addLink` in a fixed order (the bottleneck's two directions,
 * then per flow its access link, reverse access link and, unless ideal, receiver access links: link
 * ids and simulator channels follow this order), and the paths through them: flow i's data crosses
 * [access_i, bottleneck, receiverAccess_i], its ACKs the reverse directions in reverse order.
 * The bottleneck's forward direction gets the scenario's queue discipline, every other direction a
 * drop-tail FIFO; all draw from the stream named after the discipline's kind ('red' as before).
 */
export function layOutDumbbell(scenario: Scenario, addLink: AddLink): DumbbellLayout {
  const b = scenario.bottleneck;
  const ns = secondsToNs;
  const q = b.queue;
  const qdiscRng = rngStream(scenario.seed, q.kind);
  const fifo = (limitPackets: number) => (ctx: QdiscContext) => droptail.create(limitPackets, {}, ctx);
  const bottleneckForward = addLink('bottleneck', b.bandwidthBps, ns(b.delayS), (ctx) => createQueueDisc(q, ctx), qdiscRng);
  const bottleneckReverse = addLink('bottleneck-reverse', b.bandwidthBps, ns(b.delayS), fifo(q.limitPackets), qdiscRng);
  const paths: number[][] = [];
  scenario.flows.forEach((f, i) => {
    const a = f.access;
    const upFwd = addLink(`access${i}`, a.bandwidthBps, ns(a.delayS), fifo(a.queuePackets), qdiscRng);
    const upRev = addLink(`access${i}-reverse`, a.bandwidthBps, ns(a.delayS), fifo(a.queuePackets), qdiscRng);
    const fwd = [upFwd, bottleneckForward];
    const rev = [bottleneckReverse, upRev];
    const r = f.receiverAccess;
    if (r !== null) {
      fwd.push(addLink(`receiver${i}`, r.bandwidthBps, ns(r.delayS), fifo(r.queuePackets), qdiscRng));
      rev.unshift(addLink(`receiver${i}-reverse`, r.bandwidthBps, ns(r.delayS), fifo(r.queuePackets), qdiscRng));
    }
    paths.push(fwd, rev);
  });
  const pathLinks = new Int32Array(PATH_SLOTS * paths.length).fill(-1);
  paths.forEach((path, k) => pathLinks.set(path, PATH_SLOTS * k));
  // Flow 0's forward path lists its links in the order of src/scenario/path.ts.
  const tracedQueueLink = paths[0]![flowPath(scenario, 0).tightestIndex]!;
  return { bottleneckForward, bottleneckReverse, pathLinks, tracedQueueLink };
}
