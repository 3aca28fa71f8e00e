import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../../errors.js';
import type { EventMeta, SystemParts } from './assemble.js';
import { compileSystem } from './compileSystem.js';
import { readModelFile, type ModelFile } from '../language/modelFile.js';
import { registerCompiler, stringifyParts, type CompileReply } from './systemCache.js';

/**
 * The compiler behind systemCache.ts: reads and checks one flow model file and the bottleneck,
 * and compiles them (this is the module that loads mathjs). Importing it registers it, so misses
 * compile in-process; run as a script (`node compileFiles.js bottleneck flow...`) it prints one
 * CompileReply per flow model as JSON, for a caller that cannot load mathjs itself.
 */

/** The checks every flow model file gets beyond its own schema: its kind, and its id matching the file name. */
export function checkFlowFile(m: ModelFile): void {
  const f = basename(m.path);
  if (m.kind !== 'flow') throw new InputError('kind', "must be 'flow' (only bottleneck.model.yaml is the shared queue)", f);
  if (`${m.id}.model.yaml` !== f) throw new InputError('id', `'${m.id}' must match the file name (${f})`, f);
}

const eventMeta = (e: EventMeta): EventMeta => ({ name: e.name, direction: e.direction, targets: e.targets, reduction: e.reduction });

export function compileParts(bottleneckPath: string, flowPath: string): SystemParts {
  const bottleneck = readModelFile(bottleneckPath);
  const flow = readModelFile(flowPath);
  checkFlowFile(flow);
  const c = compileSystem(bottleneck, flow);
  return {
    bottleneck,
    flow,
    source: c.source,
    events: c.events.map(eventMeta),
    ...(c.bnEvents.length > 0 ? { bnEvents: c.bnEvents.map(eventMeta) } : {}),
    ...(c.windows.length > 0 ? { windows: c.windows.map((w) => ({ kind: w.kind, ...(w.stepS !== undefined ? { stepS: w.stepS } : {}) })) } : {}),
  };
}

registerCompiler(compileParts);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [bottleneckPath, ...flowPaths] = process.argv.slice(2);
  const replies: CompileReply[] = flowPaths.map((flowPath) => {
    try {
      return { parts: compileParts(bottleneckPath!, flowPath) };
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      return { error: { field: e.field, problem: e.problem, ...(e.source !== undefined ? { source: e.source } : {}) } };
    }
  });
  process.stdout.write(stringifyParts(replies));
}
