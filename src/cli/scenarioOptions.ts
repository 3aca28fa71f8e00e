import { Command, Option } from 'commander';
import { InputError } from '../errors.js';
import { loadScenarioFile } from '../scenario/check/load.js';
import { isPresetName, PRESET_NAMES, presetScenario } from '../scenario/presets.js';
import { MAX_FLOWS } from '../scenario/check/scenarioSchema.js';
import type { Scenario } from '../scenario/types.js';
import { validateScenario } from '../scenario/check/validate.js';
import { PROFILES } from '../scenario/profiles.js';
import { applyProfile, parseProfile, pickProfile } from '../scenario/resolveProfile.js';
import { parseDurationS, parseInteger, parseNumber, parseProbability, parseRateBps } from '../units.js';
import { DEFAULT_VARIANT, ENGINES, isVariant, VARIANTS, type Engine, type Variant } from '../variants.js';

/**
 * The scenario flags shared by `simulate`, `predict`, `compare` and `sweep` (one parser, so the
 * engines always see the same scenario for the same command line).
 */
export interface ScenarioFlags {
  scenario?: string;
  bandwidth?: string;
  delay?: string;
  loss?: string;
  lossDirection?: string;
  flows?: string;
  duration?: string;
  mss?: string;
  queue?: string;
  seed?: string;
  accessBandwidth?: string;
  accessDelay?: string;
  delack?: string;
  minRto?: string;
  ccParam?: string[];
  sack?: string;
  recovery?: string;
  profile?: string;
  pacing?: string;
  ecn?: string;
  flowVariants?: string;
  startStagger?: string;
}

/** The flags that describe the line (everything but which scenario, its duration and its seed). */
function lineOptions(): Option[] {
  return [
    new Option('--bandwidth <rate>', 'bottleneck bandwidth, e.g. 100Mbps or 12.5MBps (b = bit, B = byte)'),
    new Option('--delay <time>', 'bottleneck one-way propagation delay, e.g. 100ms'),
    new Option('--loss <p>', 'random loss probability on the bottleneck, in [0, 1), e.g. 1e-3 or 0.1%'),
    new Option('--loss-direction <dir>', 'which packets random loss hits').choices(['data', 'both']),
    new Option('--flows <n>', 'number of flows (copies of the first flow, staggered by 0.1 s on presets)'),
    new Option('--flow-variants <list>', `one congestion control per flow, comma-separated (${VARIANTS.join(', ')}); as many as --flows`),
    new Option('--start-stagger <time>', "gap between consecutive flows' starts, e.g. 1ms (presets: 0.1s)"),
    new Option('--mss <bytes>', 'TCP maximum segment size in bytes'),
    new Option('--queue <packets>', 'queue limit in packets of every queue on the path (bottleneck and access links)'),
    new Option('--access-bandwidth <rate>', "senders' access link bandwidth"),
    new Option('--access-delay <time>', "senders' access link one-way delay"),
    new Option('--delack <n>', 'segments per delayed ACK (1 disables delayed ACKs)'),
    new Option('--min-rto <time>', 'minimum retransmission timeout (RFC 6298: 1s)'),
    new Option('--sack <on|off>', 'SACK (RFC 2018 / RFC 6675 loss recovery); on in every preset').choices(['on', 'off']),
    new Option('--recovery <policy>', 'window policy in SACK recovery: classic (cwnd = ssthresh) or prr (RFC 6937)').choices(['classic', 'prr']),
    new Option('--profile <name>', `behaviour profile: ${PROFILES.join(', ')} (what ns-3, Linux or the RFCs do where they differ; explicit flags and --cc-param win)`),
    new Option('--pacing <on|off>', 'pace departures (Linux internal pacing / fq); off by default, always on for bbr').choices(['on', 'off']),
    new Option('--ecn <on|off>', 'ECN (RFC 3168): data sent ECN-capable, marks echoed, one window cut per RTT without retransmission; off by default, dctcp needs it').choices(['on', 'off']),
    new Option('--cc-param <key=value>', "congestion-control parameter, repeatable (e.g. hystart=1; default: the variant's, see cclab list params)").argParser(
      (v: string, acc: string[] = []) => [...acc, v],
    ),
  ];
}

/**
 * Adds the line flags to a command, but those in `except` (a sweep defines --loss, --bandwidth and
 * --flows as ranges). A flag whose help names no default gets "(default: the scenario's)": left
 * out, the preset's or the scenario file's value holds.
 */
export function addLineOptions(cmd: Command, opts: { except?: readonly string[] } = {}): Command {
  for (const o of lineOptions()) {
    if (opts.except?.includes(o.long!)) continue;
    if (!/default/.test(o.description)) o.description += " (default: the scenario's)";
    cmd.addOption(o);
  }
  return cmd;
}

export function addScenarioOptions(cmd: Command): Command {
  return addLineOptions(
    cmd
      .option('--scenario <name|file>', `preset (${PRESET_NAMES.join(', ')}) or a scenario file (.json, .yaml)`, 'normal')
      .option('--duration <time>', "simulated time, e.g. 100s (default: the scenario's; presets 100 s)")
      .option('--seed <n>', "random seed, same seed, same results (default: the scenario's; presets 1)"),
  );
}

/** Whether any flag of {@link addLineOptions} was given (a report then applies them to every scenario). */
export function hasLineFlags(o: ScenarioFlags): boolean {
  const line: (keyof ScenarioFlags)[] = [
    'bandwidth', 'delay', 'loss', 'lossDirection', 'flows', 'flowVariants', 'startStagger', 'mss', 'queue', 'accessBandwidth', 'accessDelay', 'delack', 'minRto', 'sack', 'recovery', 'profile', 'pacing', 'ecn', 'ccParam',
  ];
  return line.some((k) => o[k] !== undefined && !(Array.isArray(o[k]) && o[k].length === 0));
}

function positiveRate(value: number, flag: string): number {
  if (!(value > 0)) throw new InputError(flag, `must be a rate > 0, got ${value}`);
  return value;
}

function atLeastZero(value: number, flag: string, text: string): number {
  if (!(value >= 0)) throw new InputError(flag, `must be >= 0, got ${text}`);
  return value;
}

/** Checked before anything is allocated: `--flows 100000000` must not build 10^8 flows first. */
function inRange(value: number, min: number, max: number, flag: string): number {
  if (value < min || value > max) throw new InputError(flag, `must be a whole number in [${min}, ${max}], got ${value}`);
  return value;
}

/**
 * Parsed flag values in SI units; undefined where the flag was not given. Only the syntax is checked
 * here (a number, a unit): the ranges are the scenario schema's (validateScenario, the one check),
 * reported under the flag that set the field (FLAG_FIELDS).
 */
function parseFlags(o: ScenarioFlags) {
  const loss = o.loss === undefined ? undefined : parseProbability(o.loss, '--loss');
  const seed = o.seed === undefined ? undefined : parseInteger(o.seed, '--seed');
  // The presets derive their queues from these four (ns-3's BDP rule): a negative delay or rate would
  // surface as a queue error, so their signs are checked here; every other range is the schema's.
  const delayS = o.delay === undefined ? undefined : atLeastZero(parseDurationS(o.delay, '--delay'), '--delay', o.delay);
  const accessDelayS = o.accessDelay === undefined ? undefined : atLeastZero(parseDurationS(o.accessDelay, '--access-delay'), '--access-delay', o.accessDelay);
  const startStaggerS = o.startStagger === undefined ? undefined : parseDurationS(o.startStagger, '--start-stagger');
  if (startStaggerS !== undefined && !(startStaggerS >= 0)) throw new InputError('--start-stagger', `must be a time >= 0, got ${o.startStagger}`);
  return {
    bandwidthBps: o.bandwidth === undefined ? undefined : positiveRate(parseRateBps(o.bandwidth, '--bandwidth'), '--bandwidth'),
    delayS,
    loss,
    flows: o.flows === undefined ? undefined : inRange(parseInteger(o.flows, '--flows'), 1, MAX_FLOWS, '--flows'),
    durationS: o.duration === undefined ? undefined : parseDurationS(o.duration, '--duration'),
    mssBytes: o.mss === undefined ? undefined : parseInteger(o.mss, '--mss'),
    queuePackets: o.queue === undefined ? undefined : parseInteger(o.queue, '--queue'),
    seed,
    accessBps: o.accessBandwidth === undefined ? undefined : positiveRate(parseRateBps(o.accessBandwidth, '--access-bandwidth'), '--access-bandwidth'),
    accessDelayS,
    delAck: o.delack === undefined ? undefined : parseInteger(o.delack, '--delack'),
    minRtoS: o.minRto === undefined ? undefined : parseDurationS(o.minRto, '--min-rto'),
    ccParams: parseCcParams(o.ccParam ?? []),
    flowVariants: o.flowVariants === undefined ? undefined : parseVariantList(o.flowVariants, '--flow-variants', false),
    startStaggerS,
  };
}

function parseCcParams(items: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) {
    const m = /^([A-Za-z][\w]*)=(.+)$/.exec(item);
    if (!m) throw new InputError('--cc-param', `must look like key=value (e.g. hystart=1), got '${item}'`);
    out[m[1]!] = parseNumber(m[2]!, `--cc-param ${m[1]}`);
  }
  return out;
}

export function parseVariant(text: unknown, flag = '--variant'): Variant {
  if (!isVariant(text)) throw new InputError(flag, `must be one of ${VARIANTS.join(', ')}, got '${String(text)}'`);
  return text;
}

/**
 * A comma-separated list as every list flag reads it: items trimmed; an empty item (`reno,,cubic`, a
 * trailing comma) is refused, as a sweep range refuses `1e-4,,1e-3`.
 */
export function splitList(text: string, flag: string): string[] {
  const items = text.split(',').map((x) => x.trim());
  if (items.length === 1 && items[0] === '') return [];
  if (items.some((x) => x === '')) throw new InputError(flag, `has an empty item, got '${text}'`);
  return items;
}

/** `packet,fluid` → the engines; naming one twice is refused. */
export function parseEngines(text: string, flag = '--engines'): Engine[] {
  const list = splitList(text, flag);
  for (const e of list) {
    if (!(ENGINES as readonly string[]).includes(e)) throw new InputError(flag, `must list ${ENGINES.join(', ')}, got '${e}'`);
  }
  if (list.length === 0) throw new InputError(flag, `must list one or more of ${ENGINES.join(', ')}`);
  const dup = list.find((e, i) => list.indexOf(e) !== i);
  if (dup !== undefined) throw new InputError(flag, `lists '${dup}' twice, got '${text}'`);
  return list as Engine[];
}

/** A comma list of variants; `distinct` (the default) refuses one named twice (`--flow-variants` may repeat). */
export function parseVariantList(text: string, flag = '--variants', distinct = true): Variant[] {
  const list = splitList(text, flag);
  if (list.length === 0) throw new InputError(flag, `must list one or more of ${VARIANTS.join(', ')}`);
  const variants = list.map((v) => parseVariant(v, flag));
  // `reno,reno` would run every case twice under one name.
  const dup = distinct ? variants.find((v, i) => variants.indexOf(v) !== i) : undefined;
  if (dup !== undefined) throw new InputError(flag, `lists '${dup}' twice, got '${text}'`);
  return variants;
}

/** Which scenario fields each flag sets, so that the schema's message can name the flag. */
const FLAG_FIELDS: readonly [keyof ScenarioFlags, string, RegExp][] = [
  ['bandwidth', '--bandwidth', /^bottleneck\.bandwidthBps$/],
  ['delay', '--delay', /^bottleneck\.delayS$/],
  ['loss', '--loss', /^bottleneck\.loss\.rate$/],
  ['flows', '--flows', /^flows$/],
  ['duration', '--duration', /^durationS$/],
  ['mss', '--mss', /^mssBytes$/],
  ['queue', '--queue', /^(bottleneck\.queue\.limitPackets|flows\[\d+\]\.(access|receiverAccess)\.queuePackets)$/],
  ['seed', '--seed', /^seed$/],
  ['accessBandwidth', '--access-bandwidth', /^flows\[\d+\]\.access\.bandwidthBps$/],
  ['accessDelay', '--access-delay', /^flows\[\d+\]\.access\.delayS$/],
  ['delack', '--delack', /^tcp\.delAckCount$/],
  ['minRto', '--min-rto', /^tcp\.minRtoS$/],
  ['ecn', '--ecn', /^tcp\.ecn$/],
  ['ccParam', '--cc-param', /^ccParams\./],
];

/**
 * Builds the Scenario a command line describes: a preset or file, then the overriding flags.
 * `variant` is the `--variant` flag when given: it replaces a file's top-level variant; without it
 * a file keeps its own, and a preset runs the default variant.
 */
export function scenarioFromOptions(opts: ScenarioFlags, variant?: Variant): Scenario {
  return scenarioWithFlags(opts.scenario ?? 'normal', opts, variant);
}

/**
 * {@link scenarioFromOptions} over a given base: a preset name or file path as `--scenario` takes, or
 * a scenario already loaded (a report's recipe entry), with the flags applied as to a file.
 */
export function scenarioWithFlags(base: string | Scenario, opts: ScenarioFlags, variant?: Variant): Scenario {
  const f = parseFlags(opts);
  const profile = opts.profile === undefined ? undefined : parseProfile(opts.profile, '--profile');
  const name = typeof base === 'string' ? base : base.name;
  let s: Scenario;
  if (typeof base !== 'string') {
    s = structuredClone(base);
    if (variant !== undefined) s.variant = variant;
    // A scenario already resolved under the same profile keeps its (possibly explicit) fields.
    if (profile !== undefined && pickProfile(s.tcp.profile, profile, `scenario '${s.name}'`) !== s.tcp.profile) applyProfile(s, profile);
    applyFileOverrides(s, f);
  } else if (isPresetName(name)) {
    // Presets recompute their queue limits from the overridden line (ns-3's BDP rule).
    s = presetScenario(name, variant ?? DEFAULT_VARIANT, {
      durationS: f.durationS,
      seed: f.seed,
      flows: f.flows,
      accessBps: f.accessBps,
      accessDelayS: f.accessDelayS,
      bottleneckBps: f.bandwidthBps,
      bottleneckDelayS: f.delayS,
      lossRate: f.loss,
      startStaggerS: f.startStaggerS,
      // ns-3's profile unless --profile names another (which replaces it, not mixed with it).
      ...(profile !== undefined && { profile }),
    });
    if (f.flows !== undefined && f.startStaggerS === undefined) checkPresetStarts(s, '--flows');
  } else if (/\.(json|ya?ml)$/i.test(name)) {
    s = loadScenarioFile(name, variant, profile);
    applyFileOverrides(s, f);
  } else {
    throw new InputError('--scenario', `must be one of ${PRESET_NAMES.join(', ')} or a .json/.yaml file, got '${name}'`);
  }
  if (f.mssBytes !== undefined) s.mssBytes = f.mssBytes;
  if (f.queuePackets !== undefined) {
    s.bottleneck.queue.limitPackets = f.queuePackets;
    for (const flow of s.flows) {
      flow.access.queuePackets = f.queuePackets;
      if (flow.receiverAccess) flow.receiverAccess.queuePackets = f.queuePackets;
    }
  }
  if (opts.lossDirection !== undefined) s.bottleneck.loss.direction = opts.lossDirection as 'data' | 'both';
  if (f.delAck !== undefined) s.tcp.delAckCount = f.delAck;
  if (f.minRtoS !== undefined) s.tcp.minRtoS = f.minRtoS;
  if (opts.sack !== undefined) s.tcp.sack = opts.sack === 'on';
  if (opts.recovery !== undefined) s.tcp.recovery = opts.recovery as 'classic' | 'prr';
  if (opts.pacing !== undefined) s.tcp.pacing = opts.pacing === 'on';
  if (opts.ecn !== undefined) s.tcp.ecn = opts.ecn === 'on';
  s.ccParams = { ...s.ccParams, ...f.ccParams };
  if (f.flowVariants !== undefined) {
    if (f.flowVariants.length !== s.flows.length) {
      const flows = opts.flows === undefined ? `the scenario has ${s.flows.length}` : `--flows is ${s.flows.length}`;
      throw new InputError('--flow-variants', `must name one variant per flow: got ${f.flowVariants.length}, ${flows}`);
    }
    f.flowVariants.forEach((v, i) => (s.flows[i]!.variant = v));
  }
  try {
    return validateScenario(s, 'command line');
  } catch (e) {
    // A field a flag set is reported under the flag (`--loss must be in [0, 1), got 1.5`).
    if (!(e instanceof InputError) || e.source !== 'command line') throw e;
    const flag = FLAG_FIELDS.find(([k, , field]) => opts[k] !== undefined && field.test(e.field));
    if (!flag) throw e;
    // A knob names itself: `--cc-param beta`, when --cc-param gave it.
    const knob = flag[1] === '--cc-param' ? e.field.slice('ccParams.'.length) : '';
    if (knob && !(opts.ccParam ?? []).some((item) => item.startsWith(`${knob}=`))) throw e;
    throw new InputError(knob ? `--cc-param ${knob}` : flag[1], e.problem);
  }
}

/** Many flows at ns-3's 0.1 s spacing start after the run ends: say which flag fixes it. */
function checkPresetStarts(s: Scenario, flag: string): void {
  const last = s.flows[s.flows.length - 1]!.startS;
  if (last >= s.durationS) {
    throw new InputError(flag, `puts ${s.flows.length} flows 0.1 s apart, the last starting at ${last.toFixed(1)} s, not before the end (${s.durationS} s): give --start-stagger (e.g. 1ms) or a longer --duration`);
  }
}

function applyFileOverrides(s: Scenario, f: ReturnType<typeof parseFlags>): void {
  if (f.bandwidthBps !== undefined) s.bottleneck.bandwidthBps = f.bandwidthBps;
  if (f.delayS !== undefined) s.bottleneck.delayS = f.delayS;
  if (f.loss !== undefined) s.bottleneck.loss.rate = f.loss;
  if (f.durationS !== undefined) {
    s.durationS = f.durationS;
    for (const flow of s.flows) if (flow.stopS !== null && flow.stopS > f.durationS) flow.stopS = f.durationS;
    for (const flow of s.flows) if (flow.startS >= f.durationS) flow.startS = 0;
  }
  if (f.seed !== undefined) s.seed = f.seed;
  if (f.accessBps !== undefined) for (const flow of s.flows) flow.access.bandwidthBps = f.accessBps;
  if (f.accessDelayS !== undefined) for (const flow of s.flows) flow.access.delayS = f.accessDelayS;
  if (f.flows !== undefined) {
    const template = s.flows[0]!;
    s.flows = Array.from({ length: f.flows }, (_, i) => structuredClone(s.flows[i] ?? template));
  }
  if (f.startStaggerS !== undefined) {
    const firstS = s.flows[0]!.startS;
    s.flows.forEach((flow, i) => (flow.startS = firstS + i * f.startStaggerS!));
  }
}

/** A number with no unit: the flag's base unit (bit/s for rates, seconds for times) applies. */
const BARE = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

/**
 * Values valid for their unit but implausible for the flag, as warnings (printed after every check):
 * a bare `--bandwidth 100` is a 100 bit/s link, a bare `--delay 100` a 100 s one-way delay.
 */
export function unitWarnings(o: ScenarioFlags): string[] {
  const out: string[] = [];
  for (const [flag, text] of [['--bandwidth', o.bandwidth], ['--access-bandwidth', o.accessBandwidth]] as const) {
    if (text !== undefined && BARE.test(text) && Number(text) > 0 && Number(text) < 1e4) {
      out.push(`${flag} ${text} is ${text} bit/s (a number without a unit is bit/s): did you mean ${text.trim()}Mbps?`);
    }
  }
  for (const [flag, text] of [['--delay', o.delay], ['--access-delay', o.accessDelay]] as const) {
    if (text !== undefined && BARE.test(text) && Number(text) >= 1) {
      out.push(`${flag} ${text} is ${text} s (a number without a unit is seconds): did you mean ${text.trim()}ms?`);
    }
  }
  return out;
}
