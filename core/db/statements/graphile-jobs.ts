// graphile-worker's private tables, which a few statements write directly where its public functions do not serve
// (docs/workarounds.md #6: the admission's jobs and job name, the start's parked job, the unlock of a job whose end
// could not be recorded). Named here alone, so that a graphile-worker release that changes them is met in one place.
export const GRAPHILE_JOBS_TABLE = "graphile_worker._private_jobs";
export const GRAPHILE_TASKS_TABLE = "graphile_worker._private_tasks";
