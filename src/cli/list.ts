import { resolve } from 'node:path';
import { COMMANDS } from './commands.js';
import { Argument, type Command } from 'commander';
import { formatSeconds } from '../compare/format.js';
import { formatRate } from '../units.js';

/**
 * `cclab list [presets|variants|params|models]`: what a command line can name, with what each
 * accepts; the cc-param keys and ranges otherwise appear only in error messages.
 */

export const LIST_TOPICS = ['presets', 'variants', 'params', 'models'] as const;
export type ListTopic = (typeof LIST_TOPICS)[number];

/** Left-aligned columns, two spaces apart. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

export interface ListedModel {
  id: string;
  file: string;
  status: 'ok' | 'error';
  title?: string;
  form?: string;
  error?: string;
}

/** Every flow model in `dir`, compiled one by one: a broken file is listed with its error, the rest still load. */
export async function listModels(dir?: string): Promise<{ dir: string; models: ListedModel[] }> {
  const { modelSystems, modelFileIds, prepareSystems, DEFAULT_MODELS_DIR } = await import('../fluid/compiler/systemCache.js');
  const { InputError } = await import('../errors.js');
  const abs = resolve(dir ?? DEFAULT_MODELS_DIR);
  const source = modelSystems(abs);
  const models: ListedModel[] = [];
  for (const id of modelFileIds(abs)) {
    const file = `${id}.model.yaml`;
    try {
      await prepareSystems(abs, [id]);
      const m = source.system(id).flow;
      models.push({ id, file, status: 'ok', title: m.title, form: m.form });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      models.push({ id, file, status: 'error', error: e.message });
    }
  }
  return { dir: abs, models };
}

async function presetsText(json: boolean): Promise<string> {
  const { PRESET_NAMES, presetTitle, presetScenario } = await import('../scenario/presets.js');
  const rows = PRESET_NAMES.map((name) => {
    const s = presetScenario(name, 'reno');
    const a = s.flows[0]!.access;
    return {
      name,
      title: presetTitle(name),
      bottleneckBps: s.bottleneck.bandwidthBps,
      bottleneckDelayS: s.bottleneck.delayS,
      loss: s.bottleneck.loss.rate,
      lossDirection: s.bottleneck.loss.direction,
      accessBps: a.bandwidthBps,
      accessDelayS: a.delayS,
      queuePackets: s.bottleneck.queue.limitPackets,
      mssBytes: s.mssBytes,
      tightestLink: a.bandwidthBps < s.bottleneck.bandwidthBps ? 'access' : 'bottleneck',
    };
  });
  if (json) return JSON.stringify(rows, null, 1);
  return table([
    ['preset', 'bottleneck', 'one-way delay', 'loss p', 'access link', 'queue', 'MSS', 'tightest link'],
    ...rows.map((r) => [
      r.name, formatRate(r.bottleneckBps), formatSeconds(r.bottleneckDelayS), `${r.loss} (${r.lossDirection})`, `${formatRate(r.accessBps)}, ${formatSeconds(r.accessDelayS)}`,
      `${r.queuePackets} packets`, `${r.mssBytes} B`, r.tightestLink === 'access' ? `access link (${formatRate(r.accessBps)} caps goodput)` : 'bottleneck',
    ]),
  ]);
}

/**
 * What a variant's recovery id means for the sender, in both SACK settings: SACK (on in every preset)
 * recovers by RFC 6675 whatever the id; the id is the SACK-less behaviour (Reno's default is NewReno's
 * partial-ACK rule, as Linux and ns-3 run Reno: `newreno` there is not a mistake).
 */
const RECOVERY_TEXT: Readonly<Record<string, string>> = {
  newreno: 'RFC 6675 SACK; NewReno partial ACKs (RFC 6582)',
  reno: 'RFC 6675 SACK; RFC 5681 Reno (partialAcks=0)',
  none: 'slow start after every loss (Tahoe)',
};

async function variantsText(json: boolean): Promise<string> {
  const [{ CONGESTION_CONTROLS }, { VARIANTS, VARIANT_FACTS }] = await Promise.all([import('../cc/registry.js'), import('../variants.js')]);
  const rows = VARIANTS.map((v) => {
    const f = CONGESTION_CONTROLS[v];
    const cc = f.create({ ...Object.fromEntries(f.params.map((p) => [p.name, p.default])) });
    return { id: v, title: f.title, control: cc.congControl ? 'rate' : 'window', recovery: cc.recovery, engines: [...VARIANT_FACTS[v].engines], params: f.params.map((p) => p.name) };
  });
  if (json) return JSON.stringify(rows, null, 1);
  return table([
    ['variant', 'control', 'loss recovery (SACK on; without SACK)', 'engines', 'cc-params', 'title'],
    ...rows.map((r) => [r.id, r.control, RECOVERY_TEXT[r.recovery] ?? r.recovery, r.engines.length > 1 ? r.engines.join(', ') : `${r.engines.join(', ')} (no fluid model yet)`, r.params.join(', ') || '–', r.title]),
  ]);
}

async function paramsText(json: boolean): Promise<string> {
  const [{ CONGESTION_CONTROLS }, { VARIANTS }] = await Promise.all([import('../cc/registry.js'), import('../variants.js')]);
  const rows = VARIANTS.flatMap((v) => CONGESTION_CONTROLS[v].params.map((p) => ({ variant: v, ...p })));
  if (json) return JSON.stringify(rows, null, 1);
  return (
    table([['variant', 'key', 'default', 'range', 'unit', 'meaning'], ...rows.map((r) => [r.variant, r.name, String(r.default), `[${r.min}, ${r.max}]`, r.unit, r.doc])]) +
    '\n\nset with --cc-param key=value (repeatable), e.g. --variant cubic --cc-param hystart=1'
  );
}

async function modelsText(json: boolean, dir?: string): Promise<{ text: string; broken: number }> {
  const { dir: abs, models } = await listModels(dir);
  const broken = models.filter((m) => m.status === 'error').length;
  if (json) return { text: JSON.stringify({ dir: abs, models }, null, 1), broken };
  const text =
    `fluid models in ${abs}:\n` +
    table([['model', 'form', 'status', 'title'], ...models.map((m) => [m.id, m.form ?? '–', m.status === 'ok' ? 'ok' : 'ERROR', m.title ?? m.error ?? ''])]) +
    (broken > 0 ? `\n\n${broken} model file${broken > 1 ? 's' : ''} cannot be used (the others can):\n${models.filter((m) => m.error).map((m) => `  ${m.error}`).join('\n')}` : '');
  return { text, broken };
}

export function register(program: Command): void {
  program
    .command('list')
    .description(COMMANDS.list.description)
    .addArgument(new Argument('[what]', 'what to list (default: all)').choices(LIST_TOPICS))
    .option('--models <dir>', "folder of fluid model files (default: the repository's models/)")
    .option('--json', 'print JSON instead of tables')
    .action(async (what: ListTopic | undefined, o: { models?: string; json?: boolean }) => {
      const topics = what ? [what] : LIST_TOPICS;
      const parts: string[] = [];
      const json: Record<string, unknown> = {};
      for (const t of topics) {
        let text: string;
        if (t === 'models') {
          const m = await modelsText(!!o.json, o.models);
          text = m.text;
          if (m.broken > 0) process.exitCode = 1;
        } else text = await { presets: presetsText, variants: variantsText, params: paramsText }[t](!!o.json);
        if (o.json) json[t] = JSON.parse(text);
        else parts.push(topics.length > 1 ? `${t}:\n${text}` : text);
      }
      process.stdout.write((o.json ? JSON.stringify(what ? json[what] : json, null, 1) : parts.join('\n\n')) + '\n');
    });
}
