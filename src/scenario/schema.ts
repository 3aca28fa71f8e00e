import { InputError } from '../errors.js';

/**
 * A small declarative schema for scenario files: each leaf names its type and accepted range, so
 * that a bad value is reported as `field must be in [min, max], got x` and an unknown key as
 * `field is not a known key (known: ...)`. Hand-written rather than zod so the messages name the
 * accepted range exactly as the CLI contract promises.
 */
export type Schema =
  | { kind: 'number'; min: number; max: number; minExclusive?: boolean; maxExclusive?: boolean; integer?: boolean; nullable?: boolean }
  | { kind: 'string'; nullable?: boolean }
  | { kind: 'boolean' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'object'; fields: Record<string, Schema>; nullable?: boolean; optional?: readonly string[] }
  | { kind: 'record'; value: Schema }
  | { kind: 'array'; items: Schema; minItems: number; maxItems: number }
  | { kind: 'union'; tag: string; variants: Record<string, Schema & { kind: 'object' }> }
  /** A finite number, a string or a boolean (a swept value). */
  | { kind: 'scalar' }
  /** Anything: checked by other means (a sweep plan's base scenario, by validateScenario). */
  | { kind: 'any' };

export const num = (min: number, max: number, extra: Partial<Extract<Schema, { kind: 'number' }>> = {}): Schema => ({ kind: 'number', min, max, ...extra });
export const int = (min: number, max: number, extra: Partial<Extract<Schema, { kind: 'number' }>> = {}): Schema => ({ kind: 'number', min, max, integer: true, ...extra });

/** `1e13` rather than `10000000000000`; other numbers as JavaScript prints them. */
function bound(x: number): string {
  if (x === Infinity) return 'inf';
  const e = x.toExponential();
  return Math.abs(x) >= 1e6 && /^-?\d(\.\d)?e/.test(e) ? e.replace('e+', 'e') : String(x);
}

function rangeText(s: Extract<Schema, { kind: 'number' }>): string {
  const lo = s.minExclusive ? '(' : '[';
  const hi = s.maxExclusive ? ')' : ']';
  return `${s.integer ? 'a whole number in ' : 'in '}${lo}${bound(s.min)}, ${bound(s.max)}${hi}`;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/** Checks `value` against `schema`; throws InputError naming the dotted path of the first problem. */
export function check(value: unknown, schema: Schema, path: string, source?: string): void {
  const fail = (problem: string): never => {
    throw new InputError(path || '(root)', problem, source);
  };
  switch (schema.kind) {
    case 'number': {
      if (value === null && schema.nullable) return;
      if (typeof value !== 'number' || !Number.isFinite(value)) fail(`must be ${schema.integer ? '' : 'a number '}${rangeText(schema)}, got ${describe(value)}`);
      const v = value as number;
      const below = schema.minExclusive ? v <= schema.min : v < schema.min;
      const above = schema.maxExclusive ? v >= schema.max : v > schema.max;
      if (below || above || (schema.integer && !Number.isInteger(v))) fail(`must be ${rangeText(schema)}, got ${v}`);
      return;
    }
    case 'string':
      if (value === null && schema.nullable) return;
      if (typeof value !== 'string') fail(`must be a string, got ${describe(value)}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') fail(`must be true or false, got ${describe(value)}`);
      return;
    case 'enum':
      if (typeof value !== 'string' || !schema.values.includes(value)) fail(`must be one of ${schema.values.join(', ')}, got ${describe(value)}`);
      return;
    case 'object': {
      if (value === null && schema.nullable) return;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`must be an object, got ${describe(value)}`);
      const obj = value as Record<string, unknown>;
      // Own properties only: `key in` would let `constructor`, `toString` or `__proto__` through.
      for (const key of Object.keys(obj)) {
        if (!Object.hasOwn(schema.fields, key)) {
          throw new InputError(join(path, key), `is not a known key (known: ${Object.keys(schema.fields).join(', ')})`, source);
        }
      }
      for (const [key, sub] of Object.entries(schema.fields)) {
        if (!Object.hasOwn(obj, key)) {
          if (schema.optional?.includes(key)) continue;
          throw new InputError(join(path, key), 'is missing', source);
        }
        check(obj[key], sub, join(path, key), source);
      }
      return;
    }
    case 'record': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`must be an object, got ${describe(value)}`);
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) check(v, schema.value, join(path, key), source);
      return;
    }
    case 'array': {
      if (!Array.isArray(value)) fail(`must be a list, got ${describe(value)}`);
      const arr = value as unknown[];
      if (arr.length < schema.minItems || arr.length > schema.maxItems) fail(`must have ${schema.minItems} to ${schema.maxItems} entries, got ${arr.length}`);
      arr.forEach((item, i) => check(item, schema.items, `${path}[${i}]`, source));
      return;
    }
    case 'scalar':
      if (!(typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))) {
        fail(`must be a finite number, a string or true/false, got ${describe(value)}`);
      }
      return;
    case 'any':
      return;
    case 'union': {
      if (typeof value !== 'object' || value === null) fail(`must be an object, got ${describe(value)}`);
      const tag = Object.hasOwn(value as object, schema.tag) ? (value as Record<string, unknown>)[schema.tag] : undefined;
      const variant = typeof tag === 'string' && Object.hasOwn(schema.variants, tag) ? schema.variants[tag] : undefined;
      if (!variant) throw new InputError(join(path, schema.tag), `must be one of ${Object.keys(schema.variants).join(', ')}, got ${describe(tag)}`, source);
      check(value, variant, path, source);
      return;
    }
  }
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
