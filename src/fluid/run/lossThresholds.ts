import seedrandom from 'seedrandom';
import { rngStream } from '../../engine/rng.js';

/**
 * The loss thresholds of a Poisson-mode fluid run (expdraw(): the expected losses L a hybrid model
 * counts before its next loss event). L grows by p per packet the flow sends through the bottleneck
 * (rate x p), so a threshold of p x n lands the event on the n-th packet.
 *
 * Common random numbers (issue 21): for one flow on a line with random loss p > 0 the thresholds
 * come from the packet engine's own loss stream (rngStream(seed, 'loss'), one uniform per packet
 * crossing the bottleneck, src/net/dumbbell.ts onArrive). The n data packets up to and including the
 * next draw below p are Geom(p), which is ceil(E / lambda) for E ~ Exp(1), lambda = -ln(1 - p): the
 * threshold is that E, drawn given n (lambda (n - 1) plus Exp(1) truncated to [0, lambda], its one
 * uniform from the fluid's own stream), so its law stays Exp(1) exactly and the event lands between
 * packet (n - 1) lambda / p and n lambda / p (lambda / p = 1.0005 at p = 1e-3, 1.054 at 0.1): the
 * fluid run of a seed loses its packets where the packet run of that seed does. The window at the
 * first loss explains most of the packet runs' goodput spread on a long fat line (ns3-lfn: 60%),
 * which independent draws left to chance in every fluid-packet comparison. (p x n itself, mean 1 too,
 * moved the Tahoe fluid -5% on the lossy line, p = 0.1, by its steps of p.)
 *
 * When ACKs draw from the stream too (loss.direction 'both', ackStream 'shared': ns-3's one error
 * model), which draws are ACKs depends on the packet run's timing; the fluid takes every (b + 1)-th
 * draw for an ACK's (one ACK per b segments, b = tcp.delAckCount) and skips its hits. The data
 * positions are then a fixed subset of i.i.d. draws, so the law stays exact; the coupling holds where
 * the pattern and the run agree on the hit's kind, which no rule the fluid can follow does much better
 * than chance: the kinds' phase is set by the packet run's sub-RTT timing (ns3-lfn CUBIC, page seeds:
 * first cut within 0.15 s of the packet run's on 5 of 10). With `ackStream: own` the ACKs draw from
 * a stream of their own ('loss-ack') and the coupling is exact in both directions (10 of 10).
 *
 * Elsewhere (several flows: whose packet a draw was is the packet run's timing again; no random
 * loss) each threshold is an Exp(1) draw seeded by the scenario's seed.
 */
export interface LossStream {
  /** The line's random loss rate, per packet (> 0). */
  p: number;
  /** Segments per ACK when the ACKs draw from the stream too (loss.direction 'both'), else 0. */
  ackEvery: number;
}

export function lossThresholds(seed: number, stream: LossStream | null): () => number {
  if (stream === null) {
    const rng = seedrandom.alea(`cclab-fluid:${seed}`);
    return () => -Math.log(1 - rng());
  }
  const { p, ackEvery } = stream;
  if (!(p > 0 && p < 1)) throw new RangeError(`lossThresholds: p must be in (0, 1), got ${p}`);
  const u = rngStream(seed, 'loss');
  const within = seedrandom.alea(`cclab-fluid:${seed}`);
  const lambda = -Math.log(1 - p);
  const period = ackEvery > 0 ? Math.round(ackEvery) + 1 : 0;
  let position = 0;
  return () => {
    let n = 0;
    for (;;) {
      const isAck = period > 0 && position % period === period - 1;
      position++;
      const hit = u() < p;
      if (isAck) continue;
      n++;
      if (hit) return lambda * (n - 1) - Math.log(1 - within() * (1 - Math.exp(-lambda)));
    }
  };
}
