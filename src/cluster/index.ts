export * from './job.js';
export * from './k8s.js';
export * from './run.js';
export * from './slurm.js';
export * from './slurmScript.js';
export * from './wait.js';
