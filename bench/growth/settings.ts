// The sizes of `npm run bench`'s growth part. BENCH_GROWTH_TASKS sets how many finished tasks the seeded database
// holds (a smaller number while working on the benchmark; 0 skips the part).

function count(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, not ${raw}`);
  return value;
}

export const GROWTH = {
  tasks: count("BENCH_GROWTH_TASKS", 1_000_000),
  // Tenants the tasks belong to, a few with many tasks and most with few.
  tenants: count("BENCH_GROWTH_TENANTS", 3_000),
  // Every 50th task is the measured tenant's: 20,000 of a million, also written alone into the empty database.
  measuredEvery: 50,
  // Tasks read by the read load, drawn from the measured tenant's whole year.
  readTasks: 1_000,
  // How deep into the measured tenant's list the later page starts.
  laterPageDepth: 5_000,
  // Completion runs, alternating the empty and the seeded database, each this many tasks of a new tenant.
  completionRounds: 2,
  // How long the sweep measurement runs the retention sweep (after the task sweep's one run, counted in it), and
  // how many of the oldest artifacts past their retention are given a file before, to be deleted as it goes.
  sweepSeconds: 30,
  filedArtifacts: 25_000,
  // The create load's slices while the sweep runs (and before, without it).
  loadSliceSeconds: 5,
  baselineSlices: 3,
};
