/**
 * RFC 4180 CSV: a header row, then one row per record, `\n` line ends. Numbers are written as JS
 * prints them (full precision, `.` decimal); null/undefined/NaN become empty cells, which pandas
 * and R read as missing.
 */
export type CsvValue = string | number | boolean | null | undefined;

function cell(v: CsvValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows of records in the given column order (columns absent from a record are empty). */
export function toCsv<T extends Record<string, CsvValue>>(rows: readonly T[], columns: readonly (keyof T & string)[]): string {
  const lines = [columns.map(cell).join(',')];
  for (const r of rows) lines.push(columns.map((c) => cell(r[c])).join(','));
  return lines.join('\n') + '\n';
}
