import type { ComparisonCase } from '../compare/run.js';
import { formatBps, formatMbps as mbps, formatNumber, formatPct, formatSeconds, modelCell } from '../compare/format.js';
import type { Comparison, ValidityFlag } from '../compare/types.js';
import { VALIDITY } from '../compare/validity.js';
import type { Scenario } from '../scenario/types.js';
import { VARIANT_FACTS, VARIANTS, type Variant } from '../variants.js';
import { escapeHtml } from '../page/html.js';
import { caseKey, type ReplicatedFigures } from './replicates.js';
import type { ModelAgreement } from '../runs/agreement.js';
import { caseAgreement, criterionMark, fluidFigureHtml } from './agreement.js';

/**
 * The report's tables as data (rows for CSV/JSON, one record per scenario x variant, tidy so pandas
 * and R load them directly) and as HTML. The goodput table keeps the seed study's Table 2 layout:
 * variants down, scenarios across, here with packet, fluid, closed form and error columns per scenario.
 */

export interface GoodputRow extends Record<string, string | number | boolean | null> {
  variant: Variant;
  scenario: string;
  /** Median over the replications (the one run when there is one). */
  packet_goodput_bps: number | null;
  /** The 95% interval of that median (order statistics; empty with one run) and its coverage. */
  packet_goodput_low_bps: number | null;
  packet_goodput_high_bps: number | null;
  packet_interval_coverage: number | null;
  packet_runs: number;
  /** The fluid runs' median (one run per packet seed for a hybrid model, runs/agreement.ts) and its 95% interval. */
  fluid_goodput_bps: number | null;
  fluid_goodput_low_bps: number | null;
  fluid_goodput_high_bps: number | null;
  fluid_runs: number;
  /** Which criterion the fluid model met ('within-tolerance', 'inside-bimodal-interval'), '' when it misses. */
  fluid_agreement: string;
  /** The packet runs' two modes when bimodal: "low_min-low_max|high_min-high_max" in bit/s, else ''. */
  packet_modes: string;
  closed_form: string | null;
  closed_form_goodput_bps: number | null;
  /** (fluid - packet median) / packet median. */
  fluid_error: number | null;
  /** Closed-form goodput is for all flows (one flow's prediction x flows), like the packet and fluid columns. */
  closed_form_error: number | null;
  fluid_trusted: boolean;
  flags: string;
}

export const GOODPUT_COLUMNS = ['variant', 'scenario', 'packet_goodput_bps', 'packet_goodput_low_bps', 'packet_goodput_high_bps', 'packet_interval_coverage', 'packet_runs', 'fluid_goodput_bps', 'fluid_goodput_low_bps', 'fluid_goodput_high_bps', 'fluid_runs', 'fluid_agreement', 'packet_modes', 'closed_form', 'closed_form_goodput_bps', 'fluid_error', 'closed_form_error', 'fluid_trusted', 'flags'] as const;

/**
 * Preference among closed forms for the one shown in the goodput table: the most complete model
 * first (PFTK's full model covers timeouts and the receiver window, which Mathis ignores), in the
 * order each variant's registry entry lists them. Chosen by scope, never by closeness to the
 * simulation. All of them are in comparison.csv and comparison.json.
 */
export const CLOSED_FORM_PREFERENCE: readonly string[] = [...new Set(VARIANTS.flatMap((v) => VARIANT_FACTS[v].closedForms))];

/** Flags that concern closed form `cf`: the general ones, and those naming it (not its siblings). */
export function closedFormFlags(c: Comparison, cf: { title: string } | null): ValidityFlag[] {
  // Closed forms that failed leave no primary one, and the failure must still show in its column.
  if (!cf) return c.flags.filter((f) => f.subject === 'closed-form' && f.code === 'run-failed');
  return c.flags.filter((f) => f.subject === 'closed-form' && (f.code === 'bandwidth-limited' || f.message.startsWith(cf.title)));
}

export function primaryClosed(c: Comparison) {
  const rank = (f: string) => {
    const i = CLOSED_FORM_PREFERENCE.indexOf(f);
    return i < 0 ? CLOSED_FORM_PREFERENCE.length : i;
  };
  return [...c.closedForms].filter((x) => x.goodputBps !== null).sort((a, b) => rank(a.formula) - rank(b.formula))[0] ?? null;
}

/** The packet figure a goodput cell shows: the replications' median, else the comparison's own run. */
export interface PacketGoodput {
  median: number | null;
  low: number | null;
  high: number | null;
  coverage: number | null;
  runs: number;
}

/** Packet goodput of a case from its replications (median and interval), or from its one run. */
export function packetGoodput(c: ComparisonCase, figures?: ReplicatedFigures): PacketGoodput {
  if (figures && figures.goodput.n > 0) {
    const g = figures.goodput;
    const fin = (x: number) => (Number.isFinite(x) ? x : null);
    return { median: g.median, low: fin(g.low), high: fin(g.high), coverage: Number.isFinite(g.low) ? g.coverage : null, runs: g.n };
  }
  const ok = c.comparison.packet.status === 'ok';
  return { median: ok ? c.comparison.packet.goodputBps : null, low: null, high: null, coverage: null, runs: ok ? 1 : 0 };
}

const errAgainst = (model: number | null | undefined, ref: number | null): number | null =>
  model === null || model === undefined || ref === null || !Number.isFinite(model) || !(ref > 0) ? null : (model - ref) / ref;

/** Errors of the fluid model (its runs' median: runs/agreement.ts) and of the closed form against the packet median (per flow for the closed form). */
export function errorsAgainstMedian(c: ComparisonCase, p: PacketGoodput, a: ModelAgreement): { fluid: number | null; closed: number | null } {
  const cf = primaryClosed(c.comparison);
  return {
    fluid: c.comparison.fluid.status === 'ok' ? a.error : null,
    closed: errAgainst(cf?.goodputBpsAllFlows, p.median),
  };
}

/** The flags a case's cells carry in the goodput table (one home: the marks and the summary's count). */
export function tableFlags(c: Comparison): { fluid: ValidityFlag[]; closed: ValidityFlag[] } {
  return { fluid: c.flags.filter((f) => f.subject !== 'closed-form'), closed: closedFormFlags(c, primaryClosed(c)) };
}

export function goodputRows(cases: readonly ComparisonCase[], figures?: ReadonlyMap<string, ReplicatedFigures>): GoodputRow[] {
  return cases.map((cc) => {
    const c = cc.comparison;
    const cf = primaryClosed(c);
    const f = figures?.get(caseKey(c.scenario, c.variant));
    const p = packetGoodput(cc, f);
    const a = caseAgreement(cc, f);
    const e = errorsAgainstMedian(cc, p, a);
    const fin = (x: number) => (Number.isFinite(x) ? x : null);
    const m = a.modes;
    return {
      variant: c.variant,
      scenario: c.scenario,
      packet_goodput_bps: p.median,
      packet_goodput_low_bps: p.low,
      packet_goodput_high_bps: p.high,
      packet_interval_coverage: p.coverage,
      packet_runs: p.runs,
      fluid_goodput_bps: c.fluid.status === 'ok' ? fin(a.fluid.median) : null,
      fluid_goodput_low_bps: c.fluid.status === 'ok' ? fin(a.fluid.low) : null,
      fluid_goodput_high_bps: c.fluid.status === 'ok' ? fin(a.fluid.high) : null,
      fluid_runs: c.fluid.status === 'ok' ? a.fluid.n : 0,
      fluid_agreement: a.criterion ?? '',
      packet_modes: m ? `${m.lower.minBps}-${m.lower.maxBps}|${m.upper.minBps}-${m.upper.maxBps}` : '',
      closed_form: cf?.formula ?? null,
      closed_form_goodput_bps: cf?.goodputBpsAllFlows ?? null,
      fluid_error: e.fluid,
      closed_form_error: e.closed,
      fluid_trusted: c.fluidTrusted,
      flags: c.flags.map((f) => `${f.code}:${f.subject}`).join(' '),
    };
  });
}

export interface ComparisonRow extends Record<string, string | number | boolean | null> {
  variant: Variant;
  scenario: string;
  packet_mean_cwnd_segments: number;
  fluid_mean_cwnd_segments: number;
  mean_cwnd_error: number | null;
  packet_goodput_bps: number;
  fluid_goodput_bps: number;
  goodput_error: number | null;
  rmse_segments: number | null;
  nrmse: number | null;
  correlation: number | null;
  steady_from_s: number | null;
  steady_rmse_segments: number | null;
  steady_nrmse: number | null;
  steady_correlation: number | null;
  packet_timeouts: number;
  packet_fast_recoveries: number;
  packet_loss_rate: number;
  closed_forms: string;
  fluid_trusted: boolean;
  flags: string;
}

export function comparisonRows(cases: readonly ComparisonCase[]): ComparisonRow[] {
  return cases.map(({ comparison: c }) => ({
    variant: c.variant,
    scenario: c.scenario,
    packet_mean_cwnd_segments: c.packet.meanCwndSegments,
    fluid_mean_cwnd_segments: c.fluid.meanCwndSegments,
    mean_cwnd_error: c.relErr.meanCwnd,
    packet_goodput_bps: c.packet.goodputBps,
    fluid_goodput_bps: c.fluid.goodputBps,
    goodput_error: c.relErr.goodput,
    rmse_segments: c.fit?.rmseSegments ?? null,
    nrmse: c.fit?.nrmse ?? null,
    correlation: c.fit?.correlation ?? null,
    steady_from_s: c.transient.steadyFromS,
    steady_rmse_segments: c.steadyFit?.rmseSegments ?? null,
    steady_nrmse: c.steadyFit?.nrmse ?? null,
    steady_correlation: c.steadyFit?.correlation ?? null,
    packet_timeouts: c.packet.timeouts,
    packet_fast_recoveries: c.packet.fastRecoveries,
    packet_loss_rate: c.packet.lossRate,
    closed_forms: c.closedForms.map((x) => `${x.formula}=${x.goodputBpsAllFlows ?? ''}`).join(' '),
    fluid_trusted: c.fluidTrusted,
    flags: c.flags.map((f) => `${f.code}:${f.subject}`).join(' '),
  }));
}

export const COMPARISON_COLUMNS = [
  'variant', 'scenario', 'packet_mean_cwnd_segments', 'fluid_mean_cwnd_segments', 'mean_cwnd_error', 'packet_goodput_bps', 'fluid_goodput_bps',
  'goodput_error', 'rmse_segments', 'nrmse', 'correlation', 'steady_from_s', 'steady_rmse_segments', 'steady_nrmse', 'steady_correlation',
  'packet_timeouts', 'packet_fast_recoveries', 'packet_loss_rate', 'closed_forms', 'fluid_trusted', 'flags',
] as const satisfies readonly (keyof ComparisonRow)[];

export const SCENARIO_COLUMNS = [
  'scenario', 'bottleneck_bps', 'bottleneck_delay_s', 'loss_rate', 'loss_direction', 'queue', 'queue_packets', 'access_bps', 'access_delay_s',
  'flows', 'mss_bytes', 'header_bytes', 'duration_s', 'seed', 'min_rto_s', 'delayed_ack', 'base_rtt_s',
] as const satisfies readonly (keyof ScenarioRow)[];

export interface ScenarioRow extends Record<string, string | number | null> {
  scenario: string;
  bottleneck_bps: number;
  bottleneck_delay_s: number;
  loss_rate: number;
  loss_direction: string;
  queue: string;
  queue_packets: number;
  access_bps: number | null;
  access_delay_s: number | null;
  flows: number;
  mss_bytes: number;
  header_bytes: number;
  duration_s: number;
  seed: number;
  min_rto_s: number;
  delayed_ack: number;
  base_rtt_s: number;
}

export function scenarioRows(scenarios: readonly Scenario[]): ScenarioRow[] {
  return scenarios.map((s) => {
    const a = s.flows[0]?.access;
    return {
      scenario: s.name,
      bottleneck_bps: s.bottleneck.bandwidthBps,
      bottleneck_delay_s: s.bottleneck.delayS,
      loss_rate: s.bottleneck.loss.rate,
      loss_direction: s.bottleneck.loss.direction,
      queue: s.bottleneck.queue.kind,
      queue_packets: s.bottleneck.queue.limitPackets,
      access_bps: a?.bandwidthBps ?? null,
      access_delay_s: a?.delayS ?? null,
      flows: s.flows.length,
      mss_bytes: s.mssBytes,
      header_bytes: s.headerBytes,
      duration_s: s.durationS,
      seed: s.seed,
      min_rto_s: s.tcp.minRtoS,
      delayed_ack: s.tcp.delAckCount,
      base_rtt_s: 2 * (s.bottleneck.delayS + (a?.delayS ?? 0) + (s.flows[0]?.receiverAccess?.delayS ?? 0)),
    };
  });
}

/** What each kind of flag means, in general; the case-specific numbers are in each mark's tooltip. */
const FLAG_TEXT: Record<string, string> = {
  'run-failed|fluid': 'the fluid run failed; its numbers are not shown',
  'run-failed|comparison': 'the packet run failed; nothing is compared',
  'run-failed|closed-form': 'the closed forms could not be computed (the error is in the tooltip); none is shown',
  'timeouts-dominate|fluid': 'timeouts outnumber fast recoveries or leave the sender idle for a large share of the run (information: the fluid models carry the timeout probability and the RTO idle time)',
  'few-packets-per-rtt|fluid': `fewer than ${VALIDITY.minPacketsPerRtt} packets per RTT on average: too few for a fluid approximation, or for three duplicate ACKs`,
  'bandwidth-limited|fluid': 'bandwidth limited: the link, not random loss, sets the rate (goodput near capacity, or losses mostly queue overflows)',
  'bandwidth-limited|closed-form': 'closed forms assume a loss-limited flow with a given loss rate; here the link sets the rate',
  'receiver-window-limited|fluid': 'the window sits at the receiver window much of the time',
  'receiver-window-limited|closed-form': "the formula's window exceeds the receiver window",
  'closed-form-not-applicable|closed-form': 'the theory itself marks the formula as not applicable here (capped at the link rate, or no loss rate)',
  'few-loss-events|comparison': 'fewer than 5 loss reactions: the means are shaped by the first slow start (run longer)',
  'no-steady-state|comparison': 'no or only a short steady state after the first slow start',
};

/** Numbered notes for the flags of the tables: one per kind of flag, listing the cases it was raised for. */
export class FlagNotes {
  private readonly notes: { flag: ValidityFlag; cases: string[] }[] = [];
  private readonly index = new Map<string, number>();
  /** Superscript marks for a cell, linked to the notes list; the mark's tooltip has the case's own numbers. */
  marks(flags: readonly ValidityFlag[], caseLabel = ''): string {
    return flags
      .map((f) => {
        const key = `${f.code}|${f.subject}|${f.severity}`;
        let n = this.index.get(key);
        if (n === undefined) {
          this.notes.push({ flag: f, cases: [] });
          n = this.notes.length;
          this.index.set(key, n);
        }
        const note = this.notes[n - 1]!;
        if (caseLabel && !note.cases.includes(caseLabel)) note.cases.push(caseLabel);
        return `<a class="flag ${f.severity}" href="#flag-${n}" title="${escapeHtml(f.message)}">${n}</a>`;
      })
      .join('');
  }
  html(): string {
    if (this.notes.length === 0) return '';
    const items = this.notes.map(({ flag: f, cases }, i) => {
      const text = FLAG_TEXT[`${f.code}|${f.subject}`] ?? f.message;
      const where = cases.length > 0 ? ` <span class="muted">(${escapeHtml(cases.join(', '))})</span>` : '';
      return `<li id="flag-${i + 1}"><span class="flag ${f.severity}">${i + 1}</span> <strong>${escapeHtml(f.subject)}, ${f.severity === 'invalid' ? 'outside validity' : f.severity}</strong>: ${escapeHtml(text)}${where}</li>`;
    });
    return `<ul class="flags">${items.join('')}</ul><p class="muted">Hover a mark in the table for that case's numbers.</p>`;
  }
}

const err = (x: number | null, trusted = true) => `<span class="${trusted ? '' : 'untrusted'}">${formatPct(x)}</span>`;

/**
 * The models against the simulation, in the Table 2 layout: one row per variant; per scenario the
 * packet median, the fluid model and the closed form with their errors against it. Goodput in Mbit/s
 * throughout (one unit for the table).
 */
export function goodputTableHtml(cases: readonly ComparisonCase[], scenarios: readonly string[], variants: readonly Variant[], notes: FlagNotes, figures?: ReadonlyMap<string, ReplicatedFigures>): string {
  const by = new Map(cases.map((c) => [`${c.comparison.variant}|${c.comparison.scenario}`, c]));
  const head1 = `<tr><th class="label" rowspan="2">variant</th>${scenarios.map((s) => `<th class="group" colspan="3">${escapeHtml(s)}</th>`).join('')}</tr>`;
  const head2 = `<tr>${scenarios.map(() => '<th class="first">packet</th><th>fluid (error)</th><th>closed form (error)</th>').join('')}</tr>`;
  const body = variants.map((v) => {
    const cells = scenarios.map((s) => {
      const cc = by.get(`${v}|${s}`);
      if (!cc) return '<td class="first">–</td><td>–</td><td>–</td>';
      const c = cc.comparison;
      const cf = primaryClosed(c);
      const f = figures?.get(caseKey(s, v));
      const p = packetGoodput(cc, f);
      const a = caseAgreement(cc, f);
      const e = errorsAgainstMedian(cc, p, a);
      const fl = tableFlags(c);
      const bimodal = a.modes ? ` <a class="bimodal-mark" href="#bimodal-${escapeHtml(s)}-${escapeHtml(v)}" title="bimodal runs: ${mbps(a.modes.lower.median)} and ${mbps(a.modes.upper.median)} Mbit/s">⇅</a>` : '';
      return (
        `<td class="first"${p.runs > 1 ? ` title="median of ${p.runs} runs"` : ''}>${mbps(p.median)}${bimodal}</td>` +
        `<td${a.fluid.n > 1 ? ` title="median of ${a.fluid.n} fluid runs, one per packet seed (Poisson loss events)"` : ''}>${modelCell(c.fluid, `${fluidFigureHtml(a)} (${err(e.fluid, c.fluidTrusted)})${criterionMark(a)}`)}${notes.marks(fl.fluid, `${s} ${v}`)}</td>` +
        `<td${cf ? ` title="${escapeHtml(cf.title)}"` : ''}>${cf ? `${mbps(cf.goodputBpsAllFlows)} (${err(e.closed, !fl.closed.some((f) => f.severity === 'invalid'))})${notes.marks(fl.closed, `${s} ${v}`)}` : `–${notes.marks(fl.closed, `${s} ${v}`)}`}</td>`
      );
    });
    return `<tr data-variant="${v}"><th class="label" scope="row">${escapeHtml(v)}</th>${cells.join('')}</tr>`;
  });
  return `<div class="table-wrap"><table class="goodput" id="goodput-table"><caption>Goodput in Mbit/s; fluid: median of its runs (one per packet seed where the model has random loss events), errors against the packet median; ✓ within 10%, ◐ inside a bimodal interval, ⇅ bimodal packet runs</caption><thead>${head1}${head2}</thead><tbody>${body.join('')}</tbody></table></div>`;
}

/** Per scenario x variant: means, trace fit with and without the slow-start transient. */
export function comparisonTableHtml(cases: readonly ComparisonCase[], notes: FlagNotes): string {
  const head = '<tr><th class="label">scenario</th><th class="label">variant</th><th>mean cwnd packet</th><th>fluid</th><th>error</th><th>RMSE</th><th>corr.</th><th>steady from</th><th>RMSE steady</th><th>corr. steady</th><th>timeouts</th><th>fast rec.</th></tr>';
  const rows = cases.map(({ comparison: c }) => {
    const seg = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${formatNumber(x)} seg`);
    return `<tr><td class="label">${escapeHtml(c.scenario)}</td><td class="label">${escapeHtml(c.variant)}</td><td>${seg(c.packet.meanCwndSegments)}</td><td>${modelCell(c.fluid, seg(c.fluid.meanCwndSegments))}</td><td>${err(c.relErr.meanCwnd, c.fluidTrusted)}${notes.marks(c.flags.filter((f) => f.subject !== 'closed-form'), `${c.scenario} ${c.variant}`)}</td><td>${seg(c.fit?.rmseSegments)}</td><td>${formatNumber(c.fit?.correlation, 2)}</td><td>${formatSeconds(c.transient.steadyFromS)}</td><td>${seg(c.steadyFit?.rmseSegments)}</td><td>${formatNumber(c.steadyFit?.correlation, 2)}</td><td>${c.packet.timeouts}</td><td>${c.packet.fastRecoveries}</td></tr>`;
  });
  return `<div class="table-wrap"><table class="comparison"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table></div>`;
}
