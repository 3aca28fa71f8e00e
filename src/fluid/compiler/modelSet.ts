import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../errors.js';
import { readModelFile } from '../language/modelFile.js';
import { compileSystem } from './compileSystem.js';
import type { CompiledSystem } from './compileSystem.js';
import { describe } from '../language/modelDoc.js';
import { checkFlowFile } from './compileFiles.js';
import { BOTTLENECK_FILE, DEFAULT_BOTTLENECK, DEFAULT_MODELS_DIR, isBottleneckFile } from './systemCache.js';
import type { ParsedModel } from '../language/modelDoc.js';

export { BOTTLENECK_FILE, DEFAULT_MODELS_DIR };

export interface ModelSet {
  dir: string;
  bottleneck: ParsedModel;
  /** Every bottleneck model by id: `bottleneck` (drop-tail, RED) and the disciplines' `bottleneck-<kind>`. */
  bottlenecks: Map<string, ParsedModel>;
  /** Flow models keyed by id (the variant ids, plus any extra model a user added). */
  flows: Map<string, ParsedModel>;
  /** Compile (and cache) the system of a bottleneck model (default `bottleneck`) and one flow model. */
  system(id: string, bottleneck?: string): CompiledSystem;
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
  } catch (e) {
    throw new InputError('models', `cannot read the models folder '${dir}' (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!names.includes(BOTTLENECK_FILE)) throw new InputError('models', `${BOTTLENECK_FILE} is missing`, dir);
  const bnFiles = new Map(names.filter(isBottleneckFile).map((f) => [f.slice(0, -'.model.yaml'.length), readModelFile(join(dir, f))] as const));
  for (const [id, m] of bnFiles) if (m.id !== id) throw new InputError('id', `'${m.id}' must match the file name (${id}.model.yaml)`, `${id}.model.yaml`);
  const bnFile = bnFiles.get(DEFAULT_BOTTLENECK)!;
  const bottleneck = describe(bnFile);
  const flows = new Map<string, ParsedModel>();
  const files = new Map<string, ReturnType<typeof readModelFile>>();
  const systems = new Map<string, CompiledSystem>();
  for (const f of names) {
    if (isBottleneckFile(f)) continue;
    const m = readModelFile(join(dir, f));
    checkFlowFile(m);
    systems.set(m.id, compileSystem(bnFile, m));
    flows.set(m.id, describe(m));
    files.set(m.id, m);
  }
  return {
    dir,
    bottleneck,
    bottlenecks: new Map([...bnFiles].map(([id, m]) => [id, describe(m)])),
    flows,
    system(id: string, bn: string = DEFAULT_BOTTLENECK): CompiledSystem {
      const s = systems.get(id);
      if (!s) throw new InputError('variant', `has no fluid model '${id}' in ${dir} (have: ${[...systems.keys()].join(', ')})`);
      if (bn === DEFAULT_BOTTLENECK) return s;
      const b = bnFiles.get(bn);
      if (!b) throw new InputError('bottleneck.queue.kind', `has no fluid queue model '${bn}.model.yaml' in ${dir} (have: ${[...bnFiles.keys()].join(', ')})`);
      const key = `${id}+${bn}`;
      let c = systems.get(key);
      if (!c) systems.set(key, (c = compileSystem(b, files.get(id)!)));
      return c;
    },
  };
}
