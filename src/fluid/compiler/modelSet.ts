import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../errors.js';
import { readModelFile } from '../language/modelFile.js';
import { compileSystem } from './compileSystem.js';
import type { CompiledSystem } from './compileSystem.js';
import { describe } from '../language/modelDoc.js';
import { checkFlowFile } from './compileFiles.js';
import { BOTTLENECK_FILE, DEFAULT_MODELS_DIR } from './systemCache.js';
import type { ParsedModel } from '../language/modelDoc.js';

export { BOTTLENECK_FILE, DEFAULT_MODELS_DIR };

export interface ModelSet {
  dir: string;
  bottleneck: ParsedModel;
  /** Flow models keyed by id (the variant ids, plus any extra model a user added). */
  flows: Map<string, ParsedModel>;
  /** Compile (and cache) the system of the bottleneck and one flow model. */
  system(id: string): CompiledSystem;
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
  const bnFile = readModelFile(join(dir, BOTTLENECK_FILE));
  const bottleneck = describe(bnFile);
  const flows = new Map<string, ParsedModel>();
  const systems = new Map<string, CompiledSystem>();
  for (const f of names) {
    if (f === BOTTLENECK_FILE) continue;
    const m = readModelFile(join(dir, f));
    checkFlowFile(m);
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
