/**
 * Bytes a piece of code allocates on the JS heap, garbage included, by V8's sampling heap profiler
 * (node:inspector, HeapProfiler.startSampling with the objects minor and major GCs collected kept in
 * the profile): an estimate, one sample per `intervalBytes` on average, with the allocating functions.
 * A packet-engine event should allocate nothing; what it does allocate is mostly doubles boxed in heap
 * numbers where a time past 2^31 ns (or any double read from a typed array) crosses a call that the
 * optimiser did not inline. The attribution is to the outermost optimised function: code inlined
 * into it is not told apart.
 */
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

export interface Allocation<T> {
  value: T;
  /** Bytes allocated while `measure` ran (sampled estimate). */
  bytes: number;
  /** Allocating functions, most bytes first: ["name file:line", bytes]. */
  sites: [string, number][];
}

export async function allocatedBytes<T>(measure: () => T, intervalBytes = 4096): Promise<Allocation<T>> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', { samplingInterval: intervalBytes, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    const value = measure();
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
    const bySite = new Map<string, number>();
    let bytes = 0;
    const walk = (n: ProfileNode): void => {
      if (n.selfSize > 0) {
        const f = n.callFrame;
        const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
        bySite.set(key, (bySite.get(key) ?? 0) + n.selfSize);
        bytes += n.selfSize;
      }
      n.children.forEach(walk);
    };
    walk(profile.head);
    return { value, bytes, sites: [...bySite].sort((a, b) => b[1] - a[1]) };
  } finally {
    session.disconnect();
  }
}
