import { InputError } from './errors.js';

/**
 * Parsing of human quantities with units, for flags and sweep ranges: `100Mbps`, `1.5Gbit/s`,
 * `100ms`, `2s`, `1e-5`. Everything comes back in SI base units (bits/s, seconds) so that the
 * rest of the code never sees a unit suffix.
 */

const TIME_UNITS: Record<string, number> = { s: 1, ms: 1e-3, us: 1e-6, µs: 1e-6, ns: 1e-9, min: 60 };

const QUANTITY = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*([a-zµ/]*)\s*$/i;

function parseWithUnits(text: string, units: Record<string, number>, field: string, example: string, bareUnit: string): number {
  const m = QUANTITY.exec(text);
  if (!m) throw new InputError(field, `must be a number with an optional unit (e.g. ${example}), got '${text}'`);
  const value = Number(m[1]);
  const suffix = (m[2] ?? '').toLowerCase();
  if (suffix === '') return value * (units[bareUnit] ?? 1);
  const factor = units[suffix];
  if (factor === undefined) {
    throw new InputError(field, `has unknown unit '${m[2]}' (accepted: ${Object.keys(units).join(', ')})`);
  }
  return value * factor;
}

const RATE_PREFIX: Record<string, number> = {
  '': 1, k: 1e3, K: 1e3, M: 1e6, m: 1e6, G: 1e9, g: 1e9, T: 1e12, t: 1e12,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40,
};
const RATE_UNIT = /^(|[kKmMgGtT]|[KMGT]i)(bps|bit\/s|bits\/s|b\/s|Bps|B\/s|byte\/s|bytes\/s)$/;

/**
 * A rate in bits/s: `100Mbps` → 1e8, `1.5Gbit/s`, `64kbps`, `12.5MBps` (megabytes/s) → 1e8,
 * `1Mibps` → 2^20. Following SI and IEC 80000-13: `b` is a bit and `B` a byte (x 8); k, M, G, T are
 * powers of 1000, Ki, Mi, Gi, Ti powers of 1024. A lowercase m or g is read as mega or giga (a rate
 * in millibits per second is never meant), but the case of b/B is never guessed. A bare number is bits/s.
 */
export function parseRateBps(text: string, field = 'rate'): number {
  const m = QUANTITY.exec(text);
  if (!m) throw new InputError(field, `must be a rate with an optional unit (e.g. 100Mbps, 12.5MBps), got '${text}'`);
  const value = Number(m[1]);
  const suffix = m[2] ?? '';
  if (suffix === '') return value;
  const u = RATE_UNIT.exec(suffix);
  if (!u) {
    throw new InputError(field, `has unknown unit '${suffix}' (accepted: bps, kbps, Mbps, Gbps, bit/s forms, Kibps, Mibps; bytes: Bps, kBps, MBps, GBps, MiBps; b = bit, B = byte)`);
  }
  const bytes = u[2]!.startsWith('B') || u[2]!.startsWith('byte');
  return value * RATE_PREFIX[u[1]!]! * (bytes ? 8 : 1);
}

/**
 * A probability in [0, 1): `1e-3`, `0.001` or `0.1%`. Loss flags take it, so a percentage means the
 * same on every command.
 */
export function parseProbability(text: string, field = 'probability'): number {
  const t = text.trim();
  const p = t.endsWith('%') ? parseNumber(t.slice(0, -1), field) / 100 : parseNumber(t, field);
  if (!(p >= 0 && p < 1)) throw new InputError(field, `must be in [0, 1), got ${text.trim()}`);
  return p;
}

/** `100ms` → 0.1 s. A bare number is seconds. */
export function parseDurationS(text: string, field = 'time'): number {
  return parseWithUnits(text, TIME_UNITS, field, '100ms', 's');
}

const DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

/**
 * A plain decimal number (`1e-5`, `0.3`, `-2`). Number() alone would also take `0x10`, `0b1`,
 * `0o7` and '' (as 0), which nobody means as a loss rate or a seed.
 */
export function parseNumber(text: string, field = 'value'): number {
  const t = text.trim();
  const value = DECIMAL.test(t) ? Number(t) : NaN;
  if (!Number.isFinite(value)) throw new InputError(field, `must be a decimal number (e.g. 0.01, 1e-3), got '${text}'`);
  return value;
}

/** A whole number (`4`). */
export function parseInteger(text: string, field = 'value'): number {
  const t = text.trim();
  const value = DECIMAL.test(t) ? Number(t) : NaN;
  // `abc` and `1.5` alike: the flag wants a count, not any decimal number.
  if (!Number.isInteger(value)) throw new InputError(field, `must be a whole number (e.g. 4), got '${text}'`);
  return value;
}

/** Formats a rate for people: 1.23 Mbit/s. */
export function formatRate(bps: number): string {
  const abs = Math.abs(bps);
  if (abs >= 1e9) return `${(bps / 1e9).toPrecision(4)} Gbit/s`;
  if (abs >= 1e6) return `${(bps / 1e6).toPrecision(4)} Mbit/s`;
  if (abs >= 1e3) return `${(bps / 1e3).toPrecision(4)} kbit/s`;
  return `${bps.toPrecision(4)} bit/s`;
}

/** Seconds to integer nanoseconds (the packet engine's clock), rounded to the nearest nanosecond. */
export function secondsToNs(s: number): number {
  return Math.round(s * 1e9);
}

/** Integer nanoseconds to seconds. */
export function nsToSeconds(ns: number): number {
  return ns / 1e9;
}

/** Packets per second a link of `bandwidthBps` serves when every packet is `packetBits` long. */
export function packetsPerSecond(bandwidthBps: number, packetBits: number): number {
  return bandwidthBps / packetBits;
}
