import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fluidSystem } from '../../src/fluid/run/runFluid.js';
import { solve } from '../../src/solver/index.js';
import { flowPath } from '../../src/scenario/path.js';
import { pointScenario } from '../../src/validate/grid.js';
import { DEFAULT_MODELS_DIR } from '../../src/fluid/compiler/systemCache.js';
import { dirWith } from '../models/helpers.js';

/**
 * The BBRv3 fluid model's data in flight (models/bbr3.model.yaml, models/README.md "BBRv3"): a state
 * filled by the send rate and drained one propagation RTT later by what leaves the bottleneck queue
 * (the flow's share of the departures, or the drops at a full buffer), with the flow's own queue
 * content a state of its own. The flight is then, by conservation, what was sent in the last
 * propagation RTT plus the flow's queue content one propagation RTT ago, and the model makes that
 * identity an attractor rather than a neutral integral that keeps every step's error (models/README.md
 * "BBRv3: the data in flight"): the checks hold it to 1.5 packets at the solver's tolerance and
 * under a changed step sequence (an unused extra state: the solver's error norm is an RMS over the
 * states, so one more state changes every step size), where the neutral integral drifted by 9 packets;
 * the own queue content equals the shared queue for one flow (it leaves as the queue does), so no
 * phantom content stays on the floor at p = 5e-2. And a
 * window-limited sender fills the queue at its pacing rate until the flight reaches cwnd, so on the
 * one-BDP buffer of the validate grid STARTUP overflows it and ends on loss, as the packet flow does.
 */
const C_PPS = 100e6 / (8 * 1488);

function solved(p: number, rttS: number, durationS: number, modelsDir?: string) {
  const s = pointScenario('bbr3', p, rttS, 100e6, 20);
  s.durationS = durationS;
  const sys = fluidSystem(s, modelsDir ? { modelsDir } : {});
  const sol = solve(sys.problem, { rtol: 1e-5, atol: 1e-7 });
  expect(sol.status).toBe('ok');
  const tp = flowPath(s).baseRttS;
  const at = (t: number, names: string[], bottleneck = ['q']): Record<string, number> => {
    const y = new Float64Array(sys.layout.n);
    sol.stateInto(t, y);
    const out: Record<string, number> = {};
    for (const n of names) out[n] = y[sys.layout.yFlow(0, n)]!;
    for (const n of bottleneck) out[n] = y[sys.layout.yBottleneck(n)]!;
    return out;
  };
  return { s, tp, at, end: s.durationS };
}

/** The models folder with bbr3 carrying one more state that nothing reads (dspare/dt = 0). */
function withSpareState(): string {
  const text = readFileSync(join(DEFAULT_MODELS_DIR, 'bbr3.model.yaml'), 'utf8')
    .replace('states:\n', 'states:\n  spare: { unit: "1", initial: 1, doc: "unused" }\n')
    .replace('equations:\n', 'equations:\n  - dspare/dt = 0\n');
  return dirWith(text, 'bbr3');
}

/** Worst |flight - (sent in the last Tp + own queue one Tp ago)|, worst |qown - q|, samples with a queue, means late on. */
function conservation(p: number, rttS: number, durationS: number, modelsDir?: string, fromS?: number) {
  const { tp, at, end } = solved(p, rttS, durationS, modelsDir);
  let worst = 0;
  let worstOwn = 0;
  let queued = 0;
  let flight = 0;
  let sentPerTp = 0;
  let n = 0;
  for (let t = fromS ?? 2 * tp; t < end; t += 0.0137) {
    const now = at(t, ['flight', 'sent', 'qown']);
    const then = at(t - tp, ['sent', 'qown']);
    worst = Math.max(worst, Math.abs(now.flight! - (now.sent! - then.sent! + then.qown!)));
    worstOwn = Math.max(worstOwn, Math.abs(now.qown! - now.q!));
    if (then.q! > 10) queued++;
    if (t > end / 2) {
      flight += now.flight!;
      sentPerTp += now.sent! - then.sent!;
      n++;
    }
  }
  return { worst, worstOwn, queued, meanFlight: flight / n, meanSentPerTp: sentPerTp / n };
}

describe('BBRv3 fluid model: the data in flight', () => {
  it('one flow: flight = sent in the last propagation RTT + its queue content one propagation RTT ago, within 1.5 packets at every time, and that content is the queue', () => {
    // 6 s: STARTUP's overflow, two probes (2.5 s apart) and a ProbeRTT (at 5 s).
    const c = conservation(1e-3, 0.03, 6);
    // The check must see queues (the probes and STARTUP build them), not only an empty buffer.
    expect(c.queued).toBeGreaterThan(20);
    // Measured: 0.27 packets (its flight is ~200 packets; the neutral integral drifted by up to 5).
    expect(c.worst).toBeLessThan(1.5);
    // Measured 0.74, in STARTUP's overflow (a gap decays at C / (q + mixPackets): one RTT at a full buffer).
    expect(c.worstOwn).toBeLessThan(1.5);
  });

  it('the same with one unused state more (a different step sequence): still within 1.5 packets', () => {
    const c = conservation(1e-3, 0.03, 6, withSpareState());
    expect(c.queued).toBeGreaterThan(20);
    // The neutral integral: 9.2 packets here. Measured now: 0.09 (own content 0.67).
    expect(c.worst).toBeLessThan(1.5);
    expect(c.worstOwn).toBeLessThan(1.5);
  });

  it.each([false, true])('p = 5e-2, RTT 30 ms, 20 s (unused extra state: %s): on the loss floor the flight is what was sent in the last RTT (no phantom queue content, no drift)', (spare) => {
    // From 1 s: past STARTUP's exit, where the run with the extra state has a 3.1-packet transient at
    // 0.32 s that the attraction removes within a few ms (models/README.md).
    const c = conservation(5e-2, 0.03, 20, spare ? withSpareState() : undefined, 1);
    // Measured: 0.035 and 0.32 packets (the model before: 5.3 in flight against 1.05 sent per round at 60 s).
    expect(c.worst).toBeLessThan(1);
    expect(c.worstOwn).toBeLessThan(0.01);
    // The queue is empty on the floor: what was sent in the last RTT is all that is in flight.
    expect(Math.abs(c.meanFlight - c.meanSentPerTp)).toBeLessThan(0.01 * c.meanSentPerTp);
  });

  it.each([0.01, 0.03, 0.1, 0.3])('RTT %d s, one-BDP buffer, p = 1e-5: STARTUP overflows the buffer and ends on loss with inflight_hi = the delivered volume C (Tp + B/C) = BDP + B (v3 bbr_handle_queue_too_high_in_startup: max(BDP, inflight_latest))', (rttS) => {
    const { s, tp, at, end } = solved(1e-5, rttS, 3 + 15 * rttS);
    let t = tp;
    while (t < end && at(t, ['mode']).mode === 0) t += tp / 4;
    expect(t).toBeLessThan(end);
    const after = at(t + tp, ['inflightHi', 'mode']);
    const full = C_PPS * tp + s.bottleneck.queue.limitPackets;
    // Measured: within 0.4% at every RTT (the drop-tail queue holds the flight at BDP + B while it overflows).
    expect(after.inflightHi! / full).toBeGreaterThan(0.97);
    expect(after.inflightHi! / full).toBeLessThan(1.03);
  });

  it.each([0.1, 0.3])('RTT %d s, p = 5e-2: STARTUP ends on the loss count before the pipe fills, with inflight_hi = what its last round delivered, below max_bw\'s BDP (packet engine, seeds 1-5: 142-250 segments, BDP estimate the same volume)', (rttS) => {
    const { tp, at, end } = solved(5e-2, rttS, 12 * rttS);
    let t = tp;
    while (t < end && at(t, ['mode']).mode === 0) t += tp / 4;
    expect(t).toBeLessThan(end);
    const after = at(t + tp / 4, ['inflightHi', 'bw', 'rtprop']);
    // Measured 170.8 at both RTTs (the round that sent ~180, minus its 5%); the model before took
    // max(bdp, rate x delivered x R) = 273 there (models/README.md "STARTUP's exit and ProbeRTT at p = 5e-2").
    expect(after.inflightHi!).toBeGreaterThan(142);
    expect(after.inflightHi!).toBeLessThan(250);
    expect(after.inflightHi!).toBeLessThan(0.8 * after.bw! * after.rtprop!);
  });
});
