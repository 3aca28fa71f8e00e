import { describe, expect, it, afterAll } from 'vitest';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { runPacket } from '../../src/packet/run.js';
import { presetScenario } from '../../src/scenario/presets.js';
import type { Scenario } from '../../src/scenario/types.js';
import type { Variant } from '../../src/variants.js';
import { fatPipe } from './helpers.js';

/**
 * Fluid vs packet agreement (issue 3). For each case: the packet engine's median over 5 seeds of the
 * mean cwnd and goodput, against one run of a mean-field model (reno, newreno, westwood) or the median
 * over the same 5 seeds of a hybrid model run with Poisson losses (tahoe, cubic; the periodic-loss
 * value is printed beside it). The models are steady-state models (no slow-start
 * overshoot dynamics worth trusting, pitfall 6 of the research notes), so both engines measure over
 * [measureFromS, durationS], after the first slow start has died out; p = 1e-4 runs 300 s because
 * loss events are rare (one per ~4 s).
 *
 * Where the model's assumptions hold the bound is 15%. Where a model misses, the case is listed in
 * KNOWN_GAPS with the measured gap (the band allows for seed noise) and the assumption that fails;
 * the same list is in models/README.md. A gap that closes or grows out of its band fails the test,
 * so the list cannot go stale silently.
 */
const SEEDS = [1, 2, 3, 4, 5];
const HYBRID = new Set<Variant>(['tahoe', 'cubic']);
const TOLERANCE = 0.15;

interface Case {
  variant: Variant;
  name: string;
  scenario: () => Scenario;
}

function measured(s: Scenario, fromS: number): Scenario {
  s.measureFromS = fromS;
  return s;
}

/**
 * Every path on cclab's own mix (no profile), as the bands below and models/README.md's table were
 * measured; the presets' ns3 profile is held by seed-lines-agreement and the ns3-agreement suites.
 * Under ns3 (thirteenth session, the same seeds) every Reno, NewReno, Tahoe and CUBIC row keeps its
 * verdict (cubic lfn +34% -> +12.3%, inside its band), and the Westwood+ rows leave their bands, the
 * handshake's RTT sample bringing its low mode (models/README.md, "The low mode"): cwnd lfn -16.8%,
 * fat p = 1e-4 +114%, 1e-3 -48%, 1e-2 -40% (ns-3's estimator); Linux's lfn -3.5%, fat 1e-4 +221%.
 */
const PATHS: { name: string; make: (v: Variant) => Scenario }[] = [
  { name: 'lfn', make: (v) => measured(presetScenario('ns3-lfn', v, { durationS: 100, profile: null }), 20) },
  { name: 'fat p=1e-4', make: (v) => measured(fatPipe(v, 1e-4, 300), 30) },
  { name: 'fat p=1e-3', make: (v) => measured(fatPipe(v, 1e-3, 100), 20) },
  { name: 'fat p=1e-2', make: (v) => measured(fatPipe(v, 1e-2, 60), 10) },
];

/**
 * Known gaps: relative error (fluid - packet) / packet of mean cwnd, measured band, and why.
 * Westwood+ at p = 1e-4 runs shorter (the packet engine may fill a 1 Gbps pipe there, which is slow
 * to simulate).
 */
const KNOWN_GAPS: Record<string, { band: [number, number]; why: string; durationS?: number }> = {
  // Westwood+ with the packet engine's default estimator (ns-3 TcpWestwoodPlus: every duplicate ACK
  // counts a segment and the ACK ending recovery counts them again, so BWE x RTTmin > cwnd after a
  // loss and the window ratchets up; the model has the same counting, estimator = 1).
  'westwood lfn': { band: [0.1, 0.35], why: 'fluid cwnd 1107 vs packet 919 (+20%), goodput +4%: with ns-3\'s estimator both windows run away (the SACKed segments the ACK that ends a recovery counts again put BWE x RTTmin above cwnd), and how far they get within the run is decided in the packet engine by where the first slow start leaves the window (models/README.md, gap 2)' },
  'westwood fat p=1e-4': { band: [0.1, 0.45], why: 'fluid cwnd 6168 vs packet 5027 (+23%) at 60 s: with ns-3\'s estimator both windows run away; the model reaches the receive window (6168 segments) within the run, the packet flows do not (models/README.md, gap 2)', durationS: 60 },
  'westwood fat p=1e-3': { band: [0.1, 0.4], why: 'fluid cwnd 4557 vs packet 3703 (+23%), 30 s: with ns-3\'s estimator both windows run away, the model\'s faster; the receive window\'s bound on the span from SND.UNA (models/README.md, "The receive window") holds it below the receive window, where it went before (6000, +62%) (models/README.md, gap 2)', durationS: 30 },
  'westwood fat p=1e-2': { band: [-0.3, -0.05], why: 'fluid cwnd 1221 vs packet 1484 (-18%), goodput -18%, 30 s: the packet engine\'s (and ns-3\'s) bandwidth samples leave out the silence between a sample window\'s end and the next ACK, so a flow that uses a small share of the link (here ~15%) reads ~10% more than it gets, which a fluid flow has no clumps to reproduce (models/README.md, gap 2; +264% when the model counted W - 1 per loss event)', durationS: 30 },
  // Westwood+ with Linux's estimator (estimator = 0: delivered segments counted once), in both engines.
  'westwood/linux lfn': { band: [0.1, 0.4], why: 'no steady state: ssthresh = BWE x RTTmin ~ cwnd (no halving), so both windows creep up (~1 segment/s) for the whole run from where the first slow start left them; the packet exit value varies with the seed (cwnd 67-169), the model starts higher. Goodput +19%' },
  'westwood/linux fat p=1e-4': { band: [1, 4], why: 'no steady state within the run (the random-loss equilibrium is thousands of segments): both windows still creep up at 60 s; the packet flows are bimodal (177-211 or 1092-1234) depending on the first loss in slow start', durationS: 60 },
  'newreno fat p=1e-2': { band: [0, 0.25], why: 'few segments per RTT (W ~ 8): fluid cwnd +9.8%, goodput +10% (+17% before the whole-segment flight, W - 1/2): at W ~ 8 a fast recovery every ~12 RTTs holds the flight below cwnd for a round (pipe drains before the sender sends), which the model, whose rate is W / R throughout, does not have' },
  // With the thresholds on the packet run's loss stream (src/fluid/run/lossThresholds.ts; these lines draw ACK losses too, so the
  // coupling is partial) the Tahoe gaps above closed on seeds 1-5 (lfn -16% -> +5.5%, fat p=1e-4 -18% -> -6.2%, p=1e-2 -15% -> +4.8%),
  // and two cases that agreed show the model's bias the old draws hid on these seeds (10 seeds: the same with either draw).
  'cubic lfn': { band: [0.05, 0.45], why: 'fluid cwnd 96.0 vs packet 71.9 (+34%) on seeds 1-5 (before the coupled draws +4%); on seeds 1-10 +18% coupled, +15% with independent Exp(1) draws: the model holds CUBIC ~15% above the packet engine on this line after 20 s, which 5 seeds of independent draws hid' },
  'tahoe fat p=1e-3': { band: [0.05, 0.3], why: 'fluid cwnd 24.8 vs packet 21.1 (+17%; +19% before the small-window rounds and detection, models/README.md "Tahoe at one or two segments") on seeds 1-5; on seeds 1-10 (the model before them) +13% coupled, +12% with independent Exp(1) draws: the model\'s bias, not the draws' },
};

/**
 * Cases whose 5-seed median is too noisy for the 15% band, with the seeds they run instead. At
 * p = 1e-4 CUBIC sees ~25 loss events in its 270 measured seconds, so one run's mean cwnd spreads
 * 172-280 segments over seeds 1-15 and the median of 5 moves by +-13% with one seed's trajectory
 * (cwnd validation changing a single ACK's growth in seed 3 took it from 224.8 to 254.2; the
 * median of 15 is 224.8 either way).
 */
const MORE_SEEDS: Record<string, number[]> = {
  'cubic fat p=1e-4': Array.from({ length: 15 }, (_, i) => i + 1),
};

/** Extra variants: (name prefix, variant, ccParams). Westwood+ also runs with Linux's estimator. */
const VARIANTS: { prefix: string; variant: Variant; ccParams?: Record<string, number> }[] = [
  ...(['reno', 'newreno', 'westwood', 'cubic', 'tahoe'] as const).map((v) => ({ prefix: v, variant: v })),
  { prefix: 'westwood/linux', variant: 'westwood', ccParams: { estimator: 0, filter: 0 } },
];

const CASES: Case[] = VARIANTS.flatMap(({ prefix, variant, ccParams }) =>
  PATHS.map((p) => {
    const name = `${prefix} ${p.name}`;
    const dur = KNOWN_GAPS[name]?.durationS;
    return {
      variant,
      name,
      scenario: () => {
        const s = p.make(variant);
        if (ccParams) s.ccParams = { ...s.ccParams, ...ccParams };
        if (dur !== undefined) s.durationS = dur;
        for (const f of s.flows) f.stopS = f.stopS === null ? null : Math.min(f.stopS, s.durationS - 2.9);
        return s;
      },
    };
  }),
);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[] = [];

describe('fluid vs packet agreement (median of 5 seeds; 15 where MORE_SEEDS says)', () => {
  afterAll(() => {
    // The table the README's numbers come from.
    console.log(['case | fluid cwnd | packet cwnd | cwnd err | fluid goodput Mb/s | packet goodput Mb/s | goodput err | verdict', ...rows].join('\n'));
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const s = c.scenario();
    // Hybrid models (loss events as discrete jumps) run as stochastic hybrid systems with Poisson
    // losses on the same seeds, and their median is compared; mean-field models are deterministic.
    const hybrid = HYBRID.has(c.variant);
    const seeds = MORE_SEEDS[c.name] ?? SEEDS;
    const fluids = hybrid ? seeds.map((seed) => runFluid({ ...s, seed }, { lossProcess: 'poisson' })) : [runFluid(s)];
    for (const f of fluids) expect(f.status).toBe('ok');
    const fc = median(fluids.map((r) => r.summary.meanCwndSegments));
    const fg = median(fluids.map((r) => r.summary.goodputBps));
    const periodic = hybrid ? ` (periodic ${runFluid(s).summary.meanCwndSegments.toFixed(1)})` : '';
    const packets = seeds.map((seed) => runPacket({ ...s, seed }));
    const pc = median(packets.map((r) => r.summary.meanCwndSegments));
    const pg = median(packets.map((r) => r.summary.goodputBps));
    const ec = fc / pc - 1;
    const eg = fg / pg - 1;
    const gap = KNOWN_GAPS[c.name];
    const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
    rows.push(`${c.name} | ${fc.toFixed(1)}${periodic} | ${pc.toFixed(1)} | ${pct(ec)} | ${(fg / 1e6).toFixed(3)} | ${(pg / 1e6).toFixed(3)} | ${pct(eg)} | ${gap ? 'known gap' : 'agrees'}`);
    if (gap) {
      expect(ec, `known gap moved out of its band: ${gap.why}`).toBeGreaterThanOrEqual(gap.band[0]);
      expect(ec, `known gap moved out of its band: ${gap.why}`).toBeLessThanOrEqual(gap.band[1]);
    } else {
      expect(Math.abs(ec), `mean cwnd: fluid ${fc.toFixed(1)} vs packet ${pc.toFixed(1)}`).toBeLessThanOrEqual(TOLERANCE);
      expect(Math.abs(eg), `goodput: fluid ${fg.toFixed(0)} vs packet ${pg.toFixed(0)}`).toBeLessThanOrEqual(TOLERANCE);
    }
  }, 120_000);
});
