import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted at every depth, no whitespace, `undefined` members dropped, as
 * JSON.stringify would. Two scenarios equal field by field serialise to the same bytes whatever the
 * order their keys were built in, which is what a content-addressed cache key needs.
 * Non-finite numbers are written as strings ("Infinity") so they do not collapse to `null`.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : JSON.stringify(String(value));
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: cannot serialise a ${typeof value}`);
  }
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** sha256 of the canonical JSON of `value`. */
export function hashOf(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
