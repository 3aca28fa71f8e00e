
/**
 * The congestion-control variants cclab knows, and the one home of what the rest of cclab needs to
 * know about each (report titles, how it counts ACKs, which closed forms describe it, the goodput
 * elasticities theory expects). The same ids key the packet engine's algorithms (`src/cc/registry.ts`)
 * and the fluid models (`models/<id>.model.yaml`); a test checks both sides.
 *
 * A variant's knobs (names, defaults, ranges) live with its algorithm, `src/cc/<id>.ts`, and are read
 * through `getCongestionControl(id).params` or `validateCcParams(id, params)` (which fills the
 * defaults): the packet engine, validateScenario, theory and the fluid models' binding all use those,
 * and a test checks that the models' copies of shared knobs (CUBIC's `c`, `beta`) agree.
 */
export const VARIANTS = ['tahoe', 'reno', 'newreno', 'westwood', 'cubic', 'dctcp', 'bbr', 'bbr3'] as const;
export type Variant = (typeof VARIANTS)[number];

/** What a scenario runs when neither a flag nor a file names a variant. */
export const DEFAULT_VARIANT: Variant = 'reno';

export function isVariant(x: unknown): x is Variant {
  return typeof x === 'string' && (VARIANTS as readonly string[]).includes(x);
}

/** Goodput elasticities theory predicts in the loss-limited region: G ∝ p^loss RTT^rtt. */
export interface Elasticity {
  loss: number;
  rtt: number;
  source: string;
}

/**
 * The closed forms cclab evaluates (src/theory/closedForms.ts computes them); named here, where each
 * variant lists the ones that describe it, so the variant table needs nothing from theory above it.
 */
export type ClosedFormId = 'mathis' | 'pftk-full' | 'pftk-approx' | 'cubic' | 'westwood' | 'tahoe' | 'bbr-steady' | 'ware-extended' | 'ware-simple';

/** BBR's closed forms (src/theory/bbrClosedForms.ts): they model the link itself, not a loss-limited window. */
export const BBR_CLOSED_FORMS: readonly ClosedFormId[] = ['bbr-steady', 'ware-extended', 'ware-simple'];

/** Loss recovery styles of the packet sender without SACK (see {@link VariantFacts.recovery}). */
export type Recovery = 'none' | 'reno' | 'newreno';

export interface VariantFacts {
  /** Short name for tables, legends and headings. */
  title: string;
  /**
   * 'window': a loss-based window (ssthresh and per-ACK growth; the packet sender runs the loss
   * response); 'rate': a rate-based algorithm that sets cwnd and pacing rate from rate samples (the
   * congControl hook, src/cc/types.ts). A test checks it against the algorithm.
   */
  control: 'window' | 'rate';
  /**
   * How congestion avoidance counts ACKs in the packet engine: 'segments' grows by acknowledged
   * segments (Linux tcp_cong_avoid_ai), so delayed ACKs do not slow it (b = 1 in the formulas);
   * 'acks' grows per ACK (RFC 5681 eq. 3), so b = delAckCount.
   */
  counting: 'segments' | 'acks';
  /** A ccParams flag that, set to 1, switches counting to 'segments'. */
  countingParam?: string;
  /**
   * How the packet sender recovers a loss without SACK (the algorithm's `recovery`, src/cc/types.ts;
   * a test checks they agree): 'none' (Tahoe: slow start after the retransmission), 'reno' (RFC 5681:
   * the first new ACK ends recovery), 'newreno' (RFC 6582: partial ACKs stay in recovery). The fluid
   * models read it here (one window cut per loss event or per loss), not from an engine instance.
   */
  recovery: Recovery;
  /** A ccParams flag that, set to anything but 1, switches recovery to 'reno' (Reno's `partialAcks`). */
  recoveryParam?: string;
  /** The closed forms (src/theory/closedForms.ts) that describe it, the most complete first. */
  closedForms: readonly ClosedFormId[];
  elasticity: Elasticity;
  /**
   * The engines that can run it: every variant has the packet engine; 'fluid' only with a model file
   * (models/<id>.model.yaml). Comparison, report, sweep, validate and predict say "no model" for the
   * fluid side of a variant without one instead of failing.
   */
  engines: readonly Engine[];
  /** It reacts to ECN marks and cannot run without tcp.ecn (DCTCP, RFC 8257; the cc registry's needsEcn). */
  needsEcn?: true;
}

const BOTH: readonly Engine[] = ['packet', 'fluid'];

/** Whether `engine` can run `variant` (the fluid engine needs a model). */
export function hasEngine(variant: Variant, engine: Engine): boolean {
  return VARIANT_FACTS[variant].engines.includes(engine);
}

const MATHIS: Elasticity = { loss: -0.5, rtt: -1, source: 'Mathis et al. 1997 (square-root law)' };
const RENO_FORMS: readonly ClosedFormId[] = ['pftk-full', 'mathis', 'pftk-approx'];

/**
 * Elasticities: Mathis et al. G ∝ MSS / (RTT sqrt(p)) for the Reno family (Westwood+'s
 * bandwidth-estimate cut keeps it close to Reno when losses are random), and CUBIC's response
 * function W ∝ (RTT / p)^(3/4), G = W / RTT ∝ p^(-3/4) RTT^(-1/4) (RFC 9438 §5.1, cubic region).
 */
export const VARIANT_FACTS: Readonly<Record<Variant, VariantFacts>> = {
  tahoe: { title: 'Tahoe', control: 'window', counting: 'acks', recovery: 'none', closedForms: ['tahoe'], elasticity: MATHIS, engines: BOTH },
  reno: { title: 'Reno', control: 'window', counting: 'segments', recovery: 'newreno', recoveryParam: 'partialAcks', closedForms: RENO_FORMS, elasticity: MATHIS, engines: BOTH },
  newreno: { title: 'NewReno', control: 'window', counting: 'acks', recovery: 'newreno', closedForms: RENO_FORMS, elasticity: MATHIS, engines: BOTH },
  westwood: {
    title: 'Westwood+',
    control: 'window',
    counting: 'acks',
    countingParam: 'segmentCounting',
    recovery: 'newreno',
    closedForms: ['westwood'],
    elasticity: { loss: -0.5, rtt: -1, source: 'Reno-like under random loss (Mascolo et al.)' },
    engines: BOTH,
  },
  cubic: {
    title: 'CUBIC',
    control: 'window',
    counting: 'segments',
    recovery: 'newreno',
    closedForms: ['cubic'],
    elasticity: { loss: -0.75, rtt: -0.25, source: 'RFC 9438 §5.1 response function (cubic region)' },
    engines: BOTH,
  },
  // DCTCP grows and meets loss as Reno (RFC 8257 3.5), so Reno's square-root law holds on a line
  // without marks; the loss formulas are not listed because DCTCP runs on a marking queue, where the
  // window follows the marks (Alizadeh et al. 2010/2011), which no closed form here describes.
  dctcp: { title: 'DCTCP', control: 'window', counting: 'segments', recovery: 'newreno', closedForms: [], elasticity: MATHIS, engines: ['packet', 'fluid'], needsEcn: true },
  bbr: {
    title: 'BBR',
    control: 'rate',
    counting: 'segments',
    recovery: 'newreno',
    // One flow alone: its steady state from the gain cycle; against loss-based flows: Ware et al. 2019.
    closedForms: ['bbr-steady', 'ware-extended', 'ware-simple'],
    // Rate-based: the bandwidth estimate ignores random loss below the long-term sampler's 20%
    // threshold, and goodput is the bottleneck's share whatever the RTT (Cardwell et al. 2016).
    elasticity: { loss: 0, rtt: 0, source: 'BBR: delivery-rate model, loss- and RTT-independent below ~20% loss (Cardwell et al. 2016)' },
    // models/bbr.model.yaml (after Scherrer et al., IMC 2022).
    engines: BOTH,
  },
  bbr3: {
    title: 'BBRv3',
    control: 'rate',
    counting: 'segments',
    recovery: 'newreno',
    // No closed form of BBRv3 is published: Ware's and Scherrer's models diverge from it (Sarpkaya et
    // al., IFIP Networking 2025), so none is listed rather than BBRv1's.
    closedForms: [],
    // Rate-based with a loss bound: random loss below the 2% LossThresh leaves the bandwidth model
    // alone (draft-ietf-ccwg-bbr 5.5.9), and goodput is the path's rate whatever the RTT.
    elasticity: { loss: 0, rtt: 0, source: 'BBRv3: delivery-rate model; loss below 2% per round is tolerated (draft-ietf-ccwg-bbr-06)' },
    // models/bbr3.model.yaml (draft-ietf-ccwg-bbr's BBRv3 in the fluid form of bbr.model.yaml).
    engines: BOTH,
  },
};

/** The variants the fluid engine has a model of. */
export function fluidVariants(): Variant[] {
  return VARIANTS.filter((v) => hasEngine(v, 'fluid'));
}

/**
 * The variants both engines run on a default scenario: the defaults of the commands that compare
 * engines (report recipes, sweep, validate), so a packet-only variant, or one that needs ECN and a
 * marking queue (dctcp), is there only when asked for.
 */
export const MODELLED_VARIANTS: readonly Variant[] = fluidVariants().filter((v) => VARIANT_FACTS[v].needsEcn !== true);

/** Whether `variant` with these knobs grows by acknowledged segments (so delayed ACKs do not slow it). */
export function countsSegments(variant: Variant, ccParams: Readonly<Record<string, number>>): boolean {
  const f = VARIANT_FACTS[variant];
  return f.counting === 'segments' || (f.countingParam !== undefined && ccParams[f.countingParam] === 1);
}

/** The loss recovery `variant` with these knobs runs without SACK (the packet sender's strategy). */
export function recoveryStyle(variant: Variant, ccParams: Readonly<Record<string, number>>): Recovery {
  const f = VARIANT_FACTS[variant];
  return f.recoveryParam !== undefined && (ccParams[f.recoveryParam] ?? 1) !== 1 ? 'reno' : f.recovery;
}

/** Engines that consume a Scenario and return a RunResult. */
export const ENGINES = ['packet', 'fluid'] as const;
export type Engine = (typeof ENGINES)[number];
