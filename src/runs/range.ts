import { InputError } from '../errors.js';
import { parseDurationS, parseNumber, parseRateBps } from '../units.js';

/**
 * Range syntax of `cclab sweep` flags:
 * - `from..to:lin|log:count` — `count` points from `from` to `to` inclusive, evenly spaced on a linear
 *   or a logarithmic scale (`10ms..400ms:log:8`, `0.5..2:lin:4`);
 * - a comma list — `1e-4,1e-3`, `10Mbps,100Mbps`;
 * - a single value — `1e-3`.
 * Values may carry the unit of the field (see {@link UnitKind}); a bare number is in the SI base unit.
 */

/** What kind of quantity a flag holds, which decides the units it accepts. */
export type UnitKind =
  /** A plain number; `%` is accepted (`1%` = 0.01). */
  | 'number'
  /** Seconds: `s`, `ms`, `us`/`µs`, `ns`, `min`; bare = seconds. */
  | 'duration'
  /** Bits per second: `bps`, `kbps`, `Mbps`, `Gbps`, `Tbps` (prefix case-insensitive); bare = bps. */
  | 'rate'
  /** A whole number (flows, packets); log/lin grids are rounded and de-duplicated. */
  | 'integer';

/** Accepted forms, quoted in every error so the user can fix the flag without opening the docs. */
export function acceptedForms(unit: UnitKind): string {
  const ex: Record<UnitKind, string> = {
    number: '1e-5..1e-1:log:9 or 1e-4,1e-3',
    duration: '10ms..400ms:log:8 or 20ms,100ms (units s, ms, us, ns, min; bare = s)',
    rate: '1Mbps..1Gbps:log:4 or 10Mbps,100Mbps (units bps, kbps, Mbps, Gbps, Mbit/s; bare = bps)',
    integer: '1,2,4 or 1..16:log:5 (whole numbers)',
  };
  return `expected from..to:lin|log:count or a comma list, e.g. ${ex[unit]}`;
}

const NUMBER_RE = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(.*)$/i;

/**
 * One value with its optional unit, in SI base units. Units are parsed by src/units.ts, the same
 * parser as the single-value flags of `simulate`, so `--rtt 100ms` means the same everywhere.
 */
function parseValue(flag: string, token: string, unit: UnitKind): { value: number; hasUnit: boolean } {
  const t = token.trim();
  const m = NUMBER_RE.exec(t);
  const bad = (why: string): never => {
    throw new InputError(flag, `has ${why} in "${token}"; ${acceptedForms(unit)}`);
  };
  if (!m) return bad('no number');
  const suffix = m[2]!.trim();
  const hasUnit = suffix !== '';
  try {
    switch (unit) {
      case 'number':
        if (suffix === '%') return { value: Number(m[1]) / 100, hasUnit };
        if (hasUnit) return bad(`an unknown unit "${suffix}"`);
        return { value: parseNumber(t, flag), hasUnit };
      case 'duration':
        return { value: parseDurationS(t, flag), hasUnit };
      case 'rate':
        return { value: parseRateBps(t, flag), hasUnit };
      case 'integer':
        if (hasUnit) return bad(`a unit "${suffix}" (whole numbers only)`);
        return { value: parseNumber(t, flag), hasUnit };
    }
  } catch (e) {
    if (e instanceof InputError && !e.problem.includes('expected from..to')) {
      throw new InputError(flag, `${e.problem}; ${acceptedForms(unit)}`);
    }
    throw e;
  }
}

/**
 * Rounds away binary noise (1e-5 x 10^1 = 1.0000000000000002e-4) so grid values print and hash the
 * way the user wrote them; 12 significant digits is far below any physical resolution here.
 */
export function tidy(x: number): number {
  return x === 0 ? 0 : Number(x.toPrecision(12));
}

/** Evenly spaced grid; endpoints are exact. */
export function linGrid(from: number, to: number, count: number): number[] {
  if (count === 1) return [from];
  return Array.from({ length: count }, (_, i) => (i === count - 1 ? to : tidy(from + ((to - from) * i) / (count - 1))));
}

/** Log-spaced grid (interpolated in log10 so decades land exactly); needs from, to > 0. */
export function logGrid(from: number, to: number, count: number): number[] {
  if (count === 1) return [from];
  const a = Math.log10(from);
  const b = Math.log10(to);
  return Array.from({ length: count }, (_, i) =>
    i === 0 ? from : i === count - 1 ? to : tidy(10 ** (a + ((b - a) * i) / (count - 1))),
  );
}

const RANGE_RE = /^(.+?)\.\.(.+?):(lin|log):(\d+)$/i;

/** Most points one range may have (checked before the values are computed: `:log:10000000` is a typo). */
export const MAX_RANGE_COUNT = 10_000;

/**
 * Parses one sweep flag into its list of values (SI base units), in the order given.
 * @throws InputError naming `flag` and the accepted form.
 */
export function parseRange(flag: string, text: string, unit: UnitKind = 'number'): number[] {
  const src = text.trim();
  if (src === '') throw new InputError(flag, `is empty; ${acceptedForms(unit)}`);
  let values: number[];
  const rm = RANGE_RE.exec(src);
  if (rm) {
    const count = Number(rm[4]);
    if (!Number.isInteger(count) || count < 2 || count > MAX_RANGE_COUNT) {
      throw new InputError(flag, `needs a count in [2, ${MAX_RANGE_COUNT}] in "${text}"; ${acceptedForms(unit)}`);
    }
    let from = parseValue(flag, rm[1]!, unit);
    const to = parseValue(flag, rm[2]!, unit);
    // `10..400ms`: a unit given only on `to` applies to both ends.
    if (!from.hasUnit && to.hasUnit && unit !== 'number') {
      from = parseValue(flag, rm[1]!.trim() + unitSuffix(rm[2]!), unit);
    } else if (from.hasUnit !== to.hasUnit) {
      throw new InputError(flag, `gives a unit on one end only in "${text}"; ${acceptedForms(unit)}`);
    }
    const scale = rm[3]!.toLowerCase();
    if (scale === 'log' && (from.value <= 0 || to.value <= 0)) {
      throw new InputError(flag, `log range needs both ends > 0, got "${text}"; ${acceptedForms(unit)}`);
    }
    values = scale === 'log' ? logGrid(from.value, to.value, count) : linGrid(from.value, to.value, count);
  } else if (src.includes('..')) {
    throw new InputError(flag, `has a malformed range "${text}"; ${acceptedForms(unit)}`);
  } else {
    const parsed = src.split(',').map((tok) => parseValue(flag, tok, unit));
    if (parsed.some((p) => p.hasUnit) && parsed.some((p) => !p.hasUnit) && unit !== 'number') {
      throw new InputError(flag, `mixes values with and without a unit in "${text}"; give the unit on every value`);
    }
    values = parsed.map((p) => tidy(p.value));
  }
  if (unit === 'integer') {
    const rounded = values.map((v) => Math.round(v));
    if (!rm && rounded.some((r, i) => r !== values[i])) {
      throw new InputError(flag, `needs whole numbers, got "${text}"; ${acceptedForms(unit)}`);
    }
    values = [...new Set(rounded)];
  }
  if (new Set(values).size !== values.length) {
    throw new InputError(flag, `lists a value twice in "${text}"`);
  }
  return values;
}

function unitSuffix(token: string): string {
  return NUMBER_RE.exec(token.trim())?.[2] ?? '';
}
