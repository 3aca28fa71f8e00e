import type { CompiledSystem } from '../compiler/compileSystem.js';
import type { FluidFlowParams } from './scenarioMap.js';

/** One flow as the fluid engine sees it: its model (compiled with the bottleneck), path and bound parameters. */
export interface FluidFlow {
  /** Model id (the variant). */
  model: string;
  system: CompiledSystem;
  flow: FluidFlowParams;
  /** The model's parameter values for this flow (params.ts). */
  params: Float64Array;
  /** Whether the model draws random loss thresholds (expdraw() in Poisson mode): its flows are never merged. */
  random: boolean;
}

/**
 * One state block of the system: a flow, or several identical flows integrated once with a
 * multiplicity (they add `members.length` times the block's rate to the shared queue). Identical
 * flows of a deterministic model stay identical for ever (same equations, same inputs, events at the
 * same instants), so one block is exact; with random loss thresholds they would not, and are kept apart.
 */
export interface FlowGroup extends FluidFlow {
  /** Indices of the Scenario's flows this block stands for, increasing. */
  members: number[];
}

/**
 * The blocks of a run, in order of their first flow. With `aggregate`, flows with the same model,
 * parameter values, propagation RTT and start and stop times share one block.
 */
export function groupFlows(flows: readonly FluidFlow[], aggregate: boolean): FlowGroup[] {
  const groups: FlowGroup[] = [];
  const byKey = new Map<string, FlowGroup>();
  flows.forEach((f, i) => {
    const key = aggregate && !f.random ? identity(f) : undefined;
    const g = key === undefined ? undefined : byKey.get(key);
    if (g) {
      g.members.push(i);
      return;
    }
    const ng: FlowGroup = { ...f, members: [i] };
    groups.push(ng);
    if (key !== undefined) byKey.set(key, ng);
  });
  return groups;
}

/** Everything a flow's trajectory depends on (numbers in shortest round-trip form: equal iff identical). */
function identity(f: FluidFlow): string {
  return [f.model, f.flow.Tp, f.flow.startS, f.flow.stopS, ...f.params].map(String).join('\0');
}
