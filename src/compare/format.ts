/** Number formatting for tables and terminals: SI prefixes, units, fixed significant digits. */

/** 1795921 -> "1.80 Mbit/s"; 35316 -> "35.3 kbit/s". */
export function formatBps(bps: number | null | undefined): string {
  if (bps === null || bps === undefined || !Number.isFinite(bps)) return '–';
  const a = Math.abs(bps);
  if (a >= 1e9) return `${(bps / 1e9).toPrecision(3)} Gbit/s`;
  if (a >= 1e6) return `${(bps / 1e6).toPrecision(3)} Mbit/s`;
  if (a >= 1e3) return `${(bps / 1e3).toPrecision(3)} kbit/s`;
  return `${bps.toFixed(0)} bit/s`;
}

/**
 * Bits/s as Mbit/s without the unit, three significant digits (8.63, 0.0353): for tables and axes
 * that state the unit once, so a row never mixes Mbit/s and kbit/s.
 */
export function formatMbps(bps: number | null | undefined): string {
  if (bps === null || bps === undefined || !Number.isFinite(bps)) return '–';
  return (bps / 1e6).toPrecision(3);
}

/** Signed percent of a ratio: 0.123 -> "+12.3%". */
export function formatPct(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  let s = (100 * x).toFixed(digits);
  if (Number(s) === 0) s = (0).toFixed(digits); // no "-0.0%"
  return `${Number(s) > 0 ? '+' : ''}${s}%`;
}

export function formatSeconds(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s)) return '–';
  if (s === 0) return '0 s';
  if (Math.abs(s) < 1) return `${+(s * 1e3).toPrecision(3)} ms`;
  return `${+s.toPrecision(4)} s`;
}

export function formatBytes(b: number): string {
  if (b >= 1 << 20) return `${+(b / (1 << 20)).toPrecision(3)} MiB`;
  if (b >= 1 << 10) return `${+(b / (1 << 10)).toPrecision(3)} KiB`;
  return `${b} B`;
}

/** Three significant digits, no exponent for everyday magnitudes. */
export function formatNumber(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (x === 0) return '0';
  // JS prints 1e-4 as 0.0001 and 1e-7 as 1e-7: short either way, no padded mantissa.
  const a = Math.abs(x);
  if (a >= 1e6) return x.toExponential(digits - 1);
  return String(+x.toPrecision(digits));
}

/** A model's cell: `text` when it ran, "no model" when the engine has none of the variant, else '–'. */
export function modelCell(f: { status: string }, text: string): string {
  if (f.status === 'ok') return text;
  return f.status === 'no-model' ? 'no model' : '–';
}
