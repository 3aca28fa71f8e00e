import { InputError } from '../errors.js';
import { QUEUE_DISCS } from '../net/qdisc/registry.js';

/**
 * Generic access to a Scenario field by dotted path, so that any field can be swept
 * (`--set tcp.minRtoS=0.2,1`, `--set flows.*.access.delayS=5ms..50ms:log:4`). A `*` segment stands
 * for every element of an array; a numeric segment picks one element.
 */

type Json = unknown;

/** Whether `seg` names a field of `n`: an own key of an object, or an index (not `length`) of an array. */
function hasField(n: Json, seg: string): boolean {
  if (Array.isArray(n)) return /^\d+$/.test(seg) && Number(seg) < n.length;
  return n !== null && typeof n === 'object' && Object.hasOwn(n, seg);
}

function splitPath(path: string): string[] {
  const parts = path.split('.');
  if (path === '' || parts.some((p) => p === '')) throw new InputError('--set', `has an empty segment in path "${path}"`);
  return parts;
}

/** Every value the path reaches in `root` (several when the path has a `*`). */
export function getPath(root: Json, path: string): Json[] {
  let nodes: Json[] = [root];
  for (const seg of splitPath(path)) {
    const next: Json[] = [];
    for (const n of nodes) {
      if (seg === '*') {
        if (!Array.isArray(n)) throw new InputError('--set', `path "${path}": "*" needs an array`);
        next.push(...n);
      } else if (hasField(n, seg)) {
        next.push((n as Record<string, Json>)[seg]);
      } else {
        throw new InputError('--set', `path "${path}" does not exist in the scenario (no "${seg}")`);
      }
    }
    nodes = next;
  }
  return nodes;
}

/**
 * Sets `value` at every place `path` reaches, in place. The leaf must already exist (typos fail
 * loudly instead of adding a field no engine reads), except under `ccParams`, whose keys are free.
 */
export function setPath(root: Json, path: string, value: Json): void {
  const parts = splitPath(path);
  const leaf = parts.pop()!;
  const parents = parts.length === 0 ? [root] : getPath(root, parts.join('.'));
  for (const p of parents) {
    if (p === null || typeof p !== 'object') {
      throw new InputError('--set', `path "${path}" does not lead to an object`);
    }
    const obj = p as Record<string, Json>;
    if (leaf === '*') {
      if (!Array.isArray(obj)) throw new InputError('--set', `path "${path}": "*" needs an array`);
      for (let i = 0; i < obj.length; i++) (obj as Json[])[i] = value;
      continue;
    }
    const free = (parts[0] === 'ccParams' && parts.length === 1) || (isQueuePath(parts) && queueParamKind(leaf) !== undefined);
    if (isQueuePath(parts) && leaf === 'kind') {
      setQueueKind(obj, value, path);
      continue;
    }
    if (!hasField(obj, leaf) && !free) {
      throw new InputError('--set', `path "${path}" does not exist in the scenario (no "${leaf}")`);
    }
    // Defined, not assigned: `ccParams.__proto__` must become a key that validation then refuses.
    Object.defineProperty(obj, leaf, { value, enumerable: true, writable: true, configurable: true });
  }
}

/*
 * The queue's parameters depend on its kind (`bottleneck.queue.kind=droptail,codel,pie`): any
 * discipline's parameter may be set under `bottleneck.queue` (validateScenario then checks it against
 * the point's kind, one line naming the field and the kind's parameters), and setting the kind keeps
 * only the parameters the new kind has (RED's thresholds do not follow the queue into CoDel).
 */
const isQueuePath = (parts: readonly string[]): boolean => parts.length === 2 && parts[0] === 'bottleneck' && parts[1] === 'queue';

/** `bottleneck.queue.<name>` where some discipline has a parameter <name>. */
export function isQueueParamPath(path: string): boolean {
  const parts = path.split('.');
  return parts.length === 3 && isQueuePath(parts.slice(0, 2)) && queueParamKind(parts[2]!) !== undefined;
}

/** 'number' or 'boolean' when some discipline has a parameter of that name, else undefined. */
function queueParamKind(name: string): 'number' | 'boolean' | undefined {
  for (const f of Object.values(QUEUE_DISCS)) {
    const spec = f.params.find((p) => p.name === name);
    if (spec) return 'boolean' in spec ? 'boolean' : 'number';
  }
  return undefined;
}

function setQueueKind(queue: Record<string, Json>, kind: Json, path: string): void {
  if (typeof kind !== 'string' || !Object.hasOwn(QUEUE_DISCS, kind)) {
    throw new InputError(path, `must be one of ${Object.keys(QUEUE_DISCS).join(', ')}, got '${String(kind)}'`);
  }
  const keep = new Set(['kind', 'limitPackets', ...QUEUE_DISCS[kind]!.params.map((p) => p.name)]);
  for (const k of Object.keys(queue)) if (!keep.has(k)) delete queue[k];
  queue.kind = kind;
}

/** The kind of value at a path, used to pick a parser for `--set` values. */
export function leafKind(root: Json, path: string): 'number' | 'string' | 'boolean' {
  const parts = path.split('.');
  if (parts[0] === 'ccParams' && parts.length === 2) return 'number';
  if (isQueuePath(parts.slice(0, -1)) && parts[2] !== 'kind') {
    const k = queueParamKind(parts[2]!);
    if (k !== undefined) return k;
  }
  const vals = getPath(root, path);
  if (vals.length === 0) throw new InputError('--set', `path "${path}" reaches no value (empty array?)`);
  const kinds = new Set(vals.map((v) => typeof v));
  const k = [...kinds][0];
  if (kinds.size !== 1 || (k !== 'number' && k !== 'string' && k !== 'boolean')) {
    throw new InputError('--set', `path "${path}" must reach numbers, strings or booleans, got ${[...kinds].join('/')}`);
  }
  return k;
}
