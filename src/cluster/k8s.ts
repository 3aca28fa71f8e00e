import { dirname, join, sep } from 'node:path';
import { stringify } from 'yaml';
import { CPUS, TASK, commandLine, type ShardedJob } from './job.js';

/**
 * The same shards as a Kubernetes Indexed Job (batch/v1, completionMode: Indexed): pod k runs
 * shard k+1 of N (`JOB_COMPLETION_INDEX` is 0-based, `--shard` 1-based), and a second Job merges.
 * Kubernetes has no afterok between Jobs: apply the merge once the indexed Job is complete
 * (`kubectl wait --for=condition=complete`). Every path is absolute and must mean the same inside the
 * pods: one PersistentVolumeClaim, mounted at the deepest folder holding the checkout, the working
 * folder, the output and the cache, provides them.
 */
export interface K8sOptions {
  image: string;
  claim: string;
  /** Folders the pods need at the same paths (checkout, output, cache). */
  paths: readonly string[];
}

export const DEFAULT_K8S_IMAGE = 'node:20-bookworm';
export const DEFAULT_K8S_CLAIM = 'cclab-work';

/** Deepest common folder of absolute paths (at least `/`). */
export function commonRoot(paths: readonly string[]): string {
  const split = paths.map((p) => p.split(sep).filter((x) => x !== ''));
  const first = split[0] ?? [];
  let n = 0;
  while (n < first.length && split.every((s) => s[n] === first[n])) n++;
  return sep + first.slice(0, n).join(sep);
}

/** Kubernetes names: lower-case alphanumerics and '-', at most 63 characters. */
const k8sName = (s: string) => s.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63) || 'cclab';

function podSpec(job: ShardedJob, o: K8sOptions, args: readonly string[], index: string) {
  const mount = commonRoot([dirname(dirname(job.cli)), job.workDir, ...o.paths]);
  // `node` from the image's PATH: the submitting machine's node binary is not in the image.
  const cmd = commandLine('node', job.cli, args, { [TASK]: index, [CPUS]: String(job.cpusPerTask) });
  return {
    restartPolicy: 'Never',
    containers: [
      {
        name: 'cclab',
        image: o.image,
        workingDir: job.workDir,
        command: ['sh', '-c', `export CCLAB_QUIET_STALE=1; exec ${cmd}`],
        resources: { requests: { cpu: String(job.cpusPerTask) }, limits: { cpu: String(job.cpusPerTask) } },
        volumeMounts: [{ name: 'work', mountPath: mount }],
      },
    ],
    volumes: [{ name: 'work', persistentVolumeClaim: { claimName: o.claim } }],
  };
}

/** The indexed Job (the shards) and the merge Job, as YAML documents, plus how to run them. */
/** `dir`: where the two files go. */
export function k8sManifests(job: ShardedJob, o: K8sOptions, dir: string): { shards: string; merge: string; commands: string[]; paths: { shards: string; merge: string } } {
  const name = k8sName(job.name);
  const shards = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, labels: { app: 'cclab' } },
    spec: {
      completionMode: 'Indexed',
      completions: job.tasks,
      parallelism: job.tasks,
      // A failed shard is retried (its finished runs come from the shared cache) before the Job fails.
      backoffLimit: 2 * job.tasks,
      template: { metadata: { labels: { app: 'cclab' } }, spec: podSpec(job, o, job.taskArgs, '$((JOB_COMPLETION_INDEX + 1))') },
    },
  };
  const merge = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: `${name.slice(0, 57)}-merge`, labels: { app: 'cclab' } },
    spec: { completions: 1, backoffLimit: 1, template: { metadata: { labels: { app: 'cclab' } }, spec: podSpec(job, o, job.mergeArgs, '0') } },
  };
  const paths = { shards: join(dir, 'shards.yaml'), merge: join(dir, 'merge.yaml') };
  const commands = [`kubectl apply -f ${paths.shards}`, `kubectl wait --for=condition=complete --timeout=-1s job/${name} && kubectl apply -f ${paths.merge}`];
  const head = (what: string) => `# ${what}, written by cclab (see src/cluster/k8s.ts). Run:\n${commands.map((c) => `#   ${c}`).join('\n')}\n`;
  return { shards: head(`Indexed Job: ${job.tasks} shards`) + stringify(shards), merge: head('Merge Job') + stringify(merge), commands, paths };
}
