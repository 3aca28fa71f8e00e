import { join } from 'node:path';
import type { Command } from 'commander';
import type { ScenarioFlags } from './scenarioOptions.js';
import { EXIT_RUN_FAILED } from '../errors.js';
import { writeFileAtomic } from '../io/atomicWrite.js';
import { asUserIo } from '../io/outDir.js';
import { jainIndex, shares } from '../result/fairness.js';
import { flowCc } from '../scenario/flowCc.js';
import { summaryJson } from '../result/summaryJson.js';
import { tracesCsvChunks } from '../result/traceCsv.js';
import type { RunResult } from '../result/types.js';
import { formatRate } from '../units.js';
import { DEFAULT_VARIANT, VARIANTS } from '../variants.js';

/** Human-readable summary of one run, for the terminal. */
export function formatRunTable(r: RunResult): string {
  const s = r.summary;
  const rows: [string, string][] = [
    ['engine', r.engine],
    ['scenario', `${r.scenario} (seed ${r.spec.seed}, ${r.durationS} s, ${r.flows.length} flow${r.flows.length === 1 ? '' : 's'})`],
    ['variant', r.variant],
    ['status', r.status + (r.failure ? `: ${r.failure}` : '')],
    ['goodput', formatRate(s.goodputBps)],
    ['throughput', formatRate(s.throughputBps)],
    ['mean cwnd', `${s.meanCwndSegments.toFixed(2)} segments (${Math.round(s.meanCwndBytes)} B)`],
    ['retransmits', String(s.retransmits)],
    ['timeouts', String(s.timeouts)],
    ['fast recoveries', String(s.fastRecoveries)],
    ['loss rate', s.lossRate.toExponential(3)],
    ['drops', `queue ${s.drops.queue}, random ${s.drops.random}, ACK random ${s.drops.ackRandom}, ACK queue ${s.drops.ackQueue}`],
    ...queueRows(r),
    ...competitionRows(r),
    ...(r.stats.events !== undefined ? ([['events', String(r.stats.events)]] as [string, string][]) : []),
    ['wall time', `${r.stats.wallS.toFixed(3)} s`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

/** Packet runs: what the traced queue's discipline did and the queueing delay it held. */
function queueRows(r: RunResult): [string, string][] {
  const q = r.queue;
  if (!q.discipline) return [];
  const byReason = (counts: Record<string, number>): string =>
    Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ') || 'none';
  const rows: [string, string][] = [['queue', `${q.discipline.kind} at ${q.link ?? 'the bottleneck'}: drops ${byReason(q.discipline.drops)}; CE marks ${byReason(q.discipline.marks)}`]];
  if (q.delay) rows.push(['queue delay', `mean ${(1000 * q.delay.meanS).toFixed(2)} ms, p99 ${(1000 * q.delay.p99S).toFixed(2)} ms (${q.delay.packets} packets)`]);
  return rows;
}

/** Flows listed one per row in the table; more are summarised (all are in --json and --out). */
export const MAX_FLOW_ROWS = 10;

/** With several flows: Jain's index and each flow's variant, goodput and share. */
function competitionRows(r: RunResult): [string, string][] {
  if (r.flows.length < 2 || r.status !== 'ok') return [];
  const g = r.flows.map((f) => f.summary.goodputBps);
  const j = jainIndex(g);
  const share = shares(g);
  const rows: [string, string][] = [['fairness', `Jain's index ${j === null ? 'n/a' : j.toFixed(4)} over ${g.length} flows`]];
  for (let i = 0; i < Math.min(MAX_FLOW_ROWS, g.length); i++) {
    const sh = share[i];
    rows.push([`flow ${i}`, `${flowCc(r.spec, i).variant}, ${formatRate(g[i]!)}${sh === null || sh === undefined ? '' : ` (${(100 * sh).toFixed(1)}%)`}`]);
  }
  if (g.length > MAX_FLOW_ROWS) rows.push([`flows ${MAX_FLOW_ROWS}-${g.length - 1}`, `${formatRate(Math.min(...g.slice(MAX_FLOW_ROWS)))} to ${formatRate(Math.max(...g.slice(MAX_FLOW_ROWS)))}`]);
  return rows;
}

/** `--out DIR`: the full result as JSON, the tidy traces as CSV, the scenario that produced them. */
export function writeRunOutputs(dir: string, r: RunResult): void {
  asUserIo('--out', () => {
    writeFileAtomic(join(dir, 'scenario.json'), JSON.stringify(r.spec, null, 2) + '\n');
    writeFileAtomic(join(dir, 'traces.csv'), tracesCsvChunks(r));
    writeFileAtomic(join(dir, 'summary.json'), JSON.stringify(summaryJson(r), null, 2) + '\n');
    writeFileAtomic(join(dir, 'result.json'), JSON.stringify(r) + '\n');
  });
}

/**
 * A run that finished as failed (the solver gave up, a model blew up) is not a success: one line
 * on stderr with the engine's reason and exit code 3, whatever was printed on stdout (--json too).
 */
export function reportRunFailure(r: RunResult): void {
  if (r.status !== 'failed') return;
  process.stderr.write(`cclab: error: run failed: ${r.failure ?? `${r.engine} run failed`}\n`);
  process.exitCode = EXIT_RUN_FAILED;
}

/** Flags of the one-run commands (`simulate`, `predict`). */
export interface SingleRunFlags extends ScenarioFlags {
  variant?: string;
  json?: boolean;
  out?: string;
}

/** Adds the flags every one-run command shares: the variant and where the result goes. */
export function addSingleRunOptions(cmd: Command): Command {
  return cmd
    .option('--variant <id>', `congestion control: ${VARIANTS.join(', ')} (default: the scenario file's variant, else ${DEFAULT_VARIANT})`)
    .option('--json', 'print one JSON object instead of a table')
    .option('--out <dir>', 'write result.json, summary.json, scenario.json and traces.csv to DIR (default: none, nothing written)');
}
