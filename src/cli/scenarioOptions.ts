import { Command, Option } from 'commander';
import { InputError } from '../errors.js';
import { loadScenarioFile } from '../scenario/load.js';
import { isPresetName, PRESET_NAMES, presetScenario } from '../scenario/presets.js';
import { MAX_FLOWS } from '../scenario/scenarioSchema.js';
import type { Scenario } from '../scenario/types.js';
import { validateScenario } from '../scenario/validate.js';
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
  flowVariants?: string;
  startStagger?: string;
}

export function addScenarioOptions(cmd: Command): Command {
  return cmd
    .option('--scenario <name|file>', `preset (${PRESET_NAMES.join(', ')}) or a scenario file (.json, .yaml)`, 'normal')
    .option('--bandwidth <rate>', 'bottleneck bandwidth, e.g. 100Mbps or 12.5MBps (b = bit, B = byte)')
    .option('--delay <time>', 'bottleneck one-way propagation delay, e.g. 100ms')
    .option('--loss <p>', 'random loss probability on the bottleneck, in [0, 1), e.g. 1e-3 or 0.1%')
    .addOption(new Option('--loss-direction <dir>', 'which packets random loss hits').choices(['data', 'both']))
    .option('--flows <n>', 'number of flows (copies of the first flow, staggered by 0.1 s on presets)')
    .option('--flow-variants <list>', `one congestion control per flow, comma-separated (${VARIANTS.join(', ')}); as many as --flows`)
    .option('--start-stagger <time>', 'gap between consecutive flows\' starts, e.g. 1ms (presets: 0.1s)')
    .option('--duration <time>', 'simulated time, e.g. 100s')
    .option('--mss <bytes>', 'TCP maximum segment size in bytes')
    .option('--queue <packets>', 'queue limit in packets of every queue on the path (bottleneck and access links)')
    .option('--seed <n>', 'random seed (same seed, same results)')
    .option('--access-bandwidth <rate>', "senders' access link bandwidth")
    .option('--access-delay <time>', "senders' access link one-way delay")
    .option('--delack <n>', 'segments per delayed ACK (1 disables delayed ACKs)')
    .option('--min-rto <time>', 'minimum retransmission timeout (RFC 6298: 1s)')
    .addOption(new Option('--sack <on|off>', 'SACK (RFC 2018 / RFC 6675 loss recovery); on in every preset').choices(['on', 'off']))
    .addOption(new Option('--recovery <policy>', 'window policy in SACK recovery: classic (cwnd = ssthresh) or prr (RFC 6937)').choices(['classic', 'prr']))
    .option('--cc-param <key=value>', 'congestion-control parameter, repeatable (e.g. hystart=1)', (v: string, acc: string[] = []) => [...acc, v]);
}

function positive(value: number, flag: string, what: string): number {
  if (!(value > 0)) throw new InputError(flag, `must be ${what} > 0, got ${value}`);
  return value;
}

/** Checked before anything is allocated: `--flows 100000000` must not build 10^8 flows first. */
function inRange(value: number, min: number, max: number, flag: string): number {
  if (value < min || value > max) throw new InputError(flag, `must be a whole number in [${min}, ${max}], got ${value}`);
  return value;
}

function atLeast(value: number, min: number, flag: string): number {
  if (value < min) throw new InputError(flag, `must be a whole number >= ${min}, got ${value}`);
  return value;
}

/** Parsed flag values in SI units; undefined where the flag was not given. */
function parseFlags(o: ScenarioFlags) {
  const loss = o.loss === undefined ? undefined : parseProbability(o.loss, '--loss');
  const seed = o.seed === undefined ? undefined : parseInteger(o.seed, '--seed');
  if (seed !== undefined && (seed < 0 || seed > 2 ** 32 - 1)) throw new InputError('--seed', `must be a whole number in [0, 4294967295], got ${seed}`);
  const delayS = o.delay === undefined ? undefined : parseDurationS(o.delay, '--delay');
  if (delayS !== undefined && delayS < 0) throw new InputError('--delay', `must be >= 0, got ${o.delay}`);
  const accessDelayS = o.accessDelay === undefined ? undefined : parseDurationS(o.accessDelay, '--access-delay');
  if (accessDelayS !== undefined && accessDelayS < 0) throw new InputError('--access-delay', `must be >= 0, got ${o.accessDelay}`);
  const startStaggerS = o.startStagger === undefined ? undefined : parseDurationS(o.startStagger, '--start-stagger');
  if (startStaggerS !== undefined && !(startStaggerS >= 0)) throw new InputError('--start-stagger', `must be a time >= 0, got ${o.startStagger}`);
  return {
    bandwidthBps: o.bandwidth === undefined ? undefined : positive(parseRateBps(o.bandwidth, '--bandwidth'), '--bandwidth', 'a rate'),
    delayS,
    loss,
    flows: o.flows === undefined ? undefined : inRange(parseInteger(o.flows, '--flows'), 1, MAX_FLOWS, '--flows'),
    durationS: o.duration === undefined ? undefined : positive(parseDurationS(o.duration, '--duration'), '--duration', 'a time'),
    mssBytes: o.mss === undefined ? undefined : atLeast(parseInteger(o.mss, '--mss'), 1, '--mss'),
    queuePackets: o.queue === undefined ? undefined : atLeast(parseInteger(o.queue, '--queue'), 1, '--queue'),
    seed,
    accessBps: o.accessBandwidth === undefined ? undefined : positive(parseRateBps(o.accessBandwidth, '--access-bandwidth'), '--access-bandwidth', 'a rate'),
    accessDelayS,
    delAck: o.delack === undefined ? undefined : atLeast(parseInteger(o.delack, '--delack'), 1, '--delack'),
    minRtoS: o.minRto === undefined ? undefined : positive(parseDurationS(o.minRto, '--min-rto'), '--min-rto', 'a time'),
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

/** `packet,fluid` → the engines; naming one twice is refused. */
export function parseEngines(text: string, flag = '--engines'): Engine[] {
  const list = text.split(',').map((e) => e.trim()).filter((e) => e !== '');
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
  const list = text.split(',').map((v) => v.trim()).filter((v) => v !== '');
  if (list.length === 0) throw new InputError(flag, `must list one or more of ${VARIANTS.join(', ')}`);
  const variants = list.map((v) => parseVariant(v, flag));
  // `reno,reno` would run every case twice under one name.
  const dup = distinct ? variants.find((v, i) => variants.indexOf(v) !== i) : undefined;
  if (dup !== undefined) throw new InputError(flag, `lists '${dup}' twice, got '${text}'`);
  return variants;
}

/**
 * Builds the Scenario a command line describes: a preset or file, then the overriding flags.
 * `variant` is the `--variant` flag when given: it replaces a file's top-level variant; without it
 * a file keeps its own, and a preset runs the default variant.
 */
export function scenarioFromOptions(opts: ScenarioFlags, variant?: Variant): Scenario {
  const f = parseFlags(opts);
  const name = opts.scenario ?? 'normal';
  let s: Scenario;
  if (isPresetName(name)) {
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
    });
    if (f.flows !== undefined && f.startStaggerS === undefined) checkPresetStarts(s, '--flows');
  } else if (/\.(json|ya?ml)$/i.test(name)) {
    s = loadScenarioFile(name, variant);
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
  s.ccParams = { ...s.ccParams, ...f.ccParams };
  if (f.flowVariants !== undefined) {
    if (f.flowVariants.length !== s.flows.length) {
      const flows = opts.flows === undefined ? `the scenario has ${s.flows.length}` : `--flows is ${s.flows.length}`;
      throw new InputError('--flow-variants', `must name one variant per flow: got ${f.flowVariants.length}, ${flows}`);
    }
    f.flowVariants.forEach((v, i) => (s.flows[i]!.variant = v));
  }
  return validateScenario(s, 'command line');
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
