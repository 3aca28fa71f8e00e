import { InputError } from './errors.js';

/**
 * Parsing of human quantities with units, for flags and sweep ranges: `100Mbps`, `1.5Gbit/s`,
 * `100ms`, `2s`, `1e-5`. Everything comes back in SI base units (bits/s, seconds) so that the
 * rest of the code never sees a unit suffix.
 */

const RATE_UNITS: Record<string, number> = {
  bps: 1, 'bit/s': 1, kbps: 1e3, 'kbit/s': 1e3, mbps: 1e6, 'mbit/s': 1e6, gbps: 1e9, 'gbit/s': 1e9, tbps: 1e12,
};
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

/** `100Mbps` → 1e8 bits/s. A bare number is bits/s. */
export function parseRateBps(text: string, field = 'rate'): number {
  return parseWithUnits(text, RATE_UNITS, field, '100Mbps', 'bps');
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
  const value = parseNumber(text, field);
  if (!Number.isInteger(value)) throw new InputError(field, `must be a whole number, got '${text}'`);
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
