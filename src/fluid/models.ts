import { readFileSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { derivative, evaluate, parse, simplify } from 'mathjs';
import type { MathNode } from 'mathjs';
import { InputError } from '../errors.js';
import { VARIANTS } from '../variants.js';
import type { Variant } from '../variants.js';
import { readModelFile } from './modelFile.js';
import type { ModelFile } from './modelFile.js';
import { compileSystem } from './compile.js';
import type { CompiledSystem } from './compile.js';
import { toLatex } from './latex.js';

/** The repository's `models/` directory. */
export const DEFAULT_MODELS_DIR = fileURLToPath(new URL('../../models/', import.meta.url));
/** The shared bottleneck's file name inside a models directory. */
export const BOTTLENECK_FILE = 'bottleneck.model.yaml';

/** A model as the report shows it: metadata, units, and each equation in text and LaTeX. */
export interface ParsedModel {
  id: string;
  kind: 'flow' | 'bottleneck';
  file: string;
  title: string;
  citation: string;
  description: string;
  form: 'mean-field' | 'hybrid';
  states: { name: string; unit: string; doc: string; initial: string; discrete: boolean; min?: string; max?: string }[];
  params: { name: string; unit: string; doc: string; default?: number; min: number; max: number; fromScenario: boolean }[];
  outputs: { name: string; unit: string; expression: string; latex: string }[];
  equations: { state: string; expression: string; latex: string }[];
  events: { name: string; when: string; guard?: string; set: string[]; latex: string }[];
  /** The file as read (for compiling against a bottleneck). */
  source: ModelFile;
}

export interface ModelSet {
  dir: string;
  bottleneck: ParsedModel;
  /** Flow models keyed by id (the variant ids, plus any extra model a user added). */
  flows: Map<string, ParsedModel>;
  /** Compile (and cache) the system of the bottleneck and one flow model. */
  system(id: string): CompiledSystem;
}

function describe(m: ModelFile): ParsedModel {
  const file = basename(m.path);
  const tex = (text: string, line: number): string => toLatex(text, file, line);
  return {
    id: m.id,
    kind: m.kind,
    file,
    title: m.title,
    citation: m.citation,
    description: m.description,
    form: m.form,
    states: m.states.map((s) => ({ name: s.name, unit: s.unit, doc: s.doc, initial: s.initial.text, discrete: s.discrete, min: s.min?.text, max: s.max?.text })),
    params: m.params.map((p) => ({ name: p.name, unit: p.unit, doc: p.doc, default: p.default, min: p.min, max: p.max, fromScenario: p.scenario })),
    outputs: m.outputs.map((o) => ({ name: o.name, unit: o.unit, expression: o.text, latex: `${toLatex(o.name)} = ${tex(o.text, o.line)}` })),
    equations: m.equations.map((e) => ({ state: e.state, expression: e.text, latex: `\\frac{d${toLatex(e.state)}}{dt} = ${tex(e.text, e.line)}` })),
    events: m.events.map((e) => ({
      name: e.name,
      when: e.when.text,
      guard: e.guard?.text,
      set: e.set.map((s) => `${s.state} = ${s.expr.text}`),
      latex: `${tex(e.when.text, e.when.line)} \\;\\Rightarrow\\; ${e.set.length === 0 ? '\\text{(restart)}' : e.set.map((s) => `${toLatex(s.state)} \\leftarrow ${tex(s.expr.text, s.expr.line)}`).join(',\\ ')}`,
    })),
    source: m,
  };
}


/**
 * Read, check and compile every `*.model.yaml` in `dir` (default: the repository's models/).
 * Any problem is an InputError naming the file and line. Every flow model is compiled against the
 * bottleneck, so an undeclared symbol anywhere fails here, not mid-run.
 */
export function loadModels(dir: string = DEFAULT_MODELS_DIR): ModelSet {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.model.yaml')).sort();
  } catch {
    throw new InputError('models', `directory not found: ${dir}`);
  }
  if (!names.includes(BOTTLENECK_FILE)) throw new InputError('models', `${BOTTLENECK_FILE} is missing`, dir);
  const bnFile = readModelFile(join(dir, BOTTLENECK_FILE));
  const bottleneck = describe(bnFile);
  const flows = new Map<string, ParsedModel>();
  const systems = new Map<string, CompiledSystem>();
  for (const f of names) {
    if (f === BOTTLENECK_FILE) continue;
    const m = readModelFile(join(dir, f));
    if (m.kind !== 'flow') throw new InputError('kind', "must be 'flow' (only bottleneck.model.yaml is the shared queue)", f);
    if (`${m.id}.model.yaml` !== f) throw new InputError('id', `'${m.id}' must match the file name (${f})`, f);
    systems.set(m.id, compileSystem(bnFile, m));
    flows.set(m.id, describe(m));
  }
  return {
    dir,
    bottleneck,
    flows,
    system(id: string): CompiledSystem {
      const s = systems.get(id);
      if (!s) throw new InputError('variant', `has no fluid model '${id}' in ${dir} (have: ${[...systems.keys()].join(', ')})`);
      return s;
    },
  };
}

/** Model sets compiled from a directory, keyed by the directory and the exact contents of its model files. */
const byContents = new Map<string, ModelSet>();
const MAX_CACHED_DIRS = 8;

/**
 * {@link loadModels}, but a directory whose model files are byte for byte the ones already compiled
 * (same names, same contents) returns the compiled set again: only the files are read, nothing is
 * parsed or compiled (a sweep or a test that passes `modelsDir` on every run pays the compile once).
 * Editing a file changes the key, so the next call compiles the new version.
 */
export function loadModelsCached(dir: string = DEFAULT_MODELS_DIR): ModelSet {
  let key: string;
  try {
    const names = readdirSync(dir).filter((f) => f.endsWith('.model.yaml')).sort();
    key = [resolve(dir), ...names.map((f) => `${f}\0${readFileSync(join(dir, f), 'utf8')}`)].join('\0\0');
  } catch {
    return loadModels(dir); // reports the missing directory or file as loadModels does
  }
  const hit = byContents.get(key);
  if (hit) return hit;
  const set = loadModels(dir);
  if (byContents.size >= MAX_CACHED_DIRS) byContents.delete(byContents.keys().next().value!);
  byContents.set(key, set);
  return set;
}

let cached: ModelSet | undefined;

/** The repository's models, loaded once. */
export function defaultModels(): ModelSet {
  cached ??= loadModels();
  return cached;
}

/** The fluid model of a variant (from the repository's models/). */
export function getModel(variant: Variant | string): ParsedModel {
  const m = defaultModels().flows.get(variant);
  if (!m) throw new InputError('variant', `has no fluid model '${variant}' (have: ${[...defaultModels().flows.keys()].join(', ')})`);
  return m;
}

/** Variant ids that have a model file (a test checks this equals VARIANTS). */
export function modelIds(set: ModelSet = defaultModels()): string[] {
  return [...set.flows.keys()].sort();
}

export { VARIANTS };

/**
 * Symbolic partial derivatives of one equation's right-hand side (mathjs `derivative`), for the
 * Jacobian and the linearisation around an operating point. Delayed values X(t - R) become symbols
 * `X_tau` (the linearisation treats the delayed state as its own variable, as Hollot et al. 2001),
 * and a conditional keeps only the branch selected by `branch` ('false' = the congestion-avoidance
 * branch of `ss == 1 ? ... : ...`). Returns text per variable, or an error note per variable.
 */
export function partials(
  model: ParsedModel,
  state: string,
  wrt: string[],
  branch: 'true' | 'false' = 'false',
  /** Parameter values substituted before differentiating (e.g. { timeouts: 0 } drops a min() term). */
  substitute: Record<string, number> = {},
): Record<string, string> {
  const eq = model.equations.find((e) => e.state === state);
  if (!eq) throw new InputError('state', `'${state}' has no equation in ${model.file}`);
  let node = undelay(parse(eq.expression), branch);
  if (Object.keys(substitute).length > 0) {
    node = simplify(node.transform((n) => (n.type === 'SymbolNode' && (n as unknown as { name: string }).name in substitute ? parse(String(substitute[(n as unknown as { name: string }).name])) : n)));
  }
  const out: Record<string, string> = {};
  for (const v of wrt) {
    try {
      out[v] = simplify(derivative(node, v)).toString();
    } catch (e) {
      out[v] = `n/a (${(e as Error).message.split('(')[0]!.trim()})`;
    }
  }
  return out;
}

/**
 * The partial derivatives of {@link partials} evaluated at an operating point (the linearisation's
 * coefficients). `point` gives every symbol the derivatives use, delayed ones as `X_tau`.
 */
export function partialsAt(
  model: ParsedModel,
  state: string,
  wrt: string[],
  point: Record<string, number>,
  branch: 'true' | 'false' = 'false',
  substitute: Record<string, number> = {},
): Record<string, number> {
  const sym = partials(model, state, wrt, branch, substitute);
  const out: Record<string, number> = {};
  for (const v of wrt) out[v] = sym[v]!.startsWith('n/a') ? NaN : Number(evaluate(sym[v]!, { ...point }));
  return out;
}

function undelay(root: MathNode, branch: 'true' | 'false'): MathNode {
  return root.transform((n) => {
    if (n.type === 'ConditionalNode') {
      const c = n as unknown as { trueExpr: MathNode; falseExpr: MathNode };
      return undelay(branch === 'true' ? c.trueExpr : c.falseExpr, branch);
    }
    if (n.type === 'FunctionNode') {
      const f = n as unknown as { fn: { name: string }; args: MathNode[] };
      const isDelay = f.args.length === 1 && !['abs', 'sqrt', 'cbrt', 'exp', 'log', 'log2', 'log10', 'floor', 'ceil', 'sign', 'tanh'].includes(f.fn.name);
      if (isDelay) return parse(`${f.fn.name}_tau`);
    }
    return n;
  });
}
