// The sizes of one `npm run soak`, each overridable from the environment (SOAK_SECONDS=60 for a short run).
function setting(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got ${text}`);
  return value;
}

export const SOAK = {
  // How long clients create tasks and faults are injected; then the run drains and is checked.
  seconds: setting("SOAK_SECONDS", 600),
  // Tenants creating a mixed load at a steady pace, besides the one noisy tenant.
  quietTenants: setting("SOAK_TENANTS", 8),
  // Each quiet tenant creates one task about this often.
  quietEveryMs: setting("SOAK_QUIET_EVERY_MS", 2000),
  // The noisy tenant's creates per second, one in `noisyDripEvery` an image whose URL sends a byte a second (cut
  // off after 3 s here) with a callback to a receiver taking 8 s: about what its share of the workers can carry,
  // so that the run can drain.
  noisyPerSecond: setting("SOAK_NOISY_PER_SECOND", 15),
  noisyDripEvery: setting("SOAK_NOISY_DRIP_EVERY", 60),
  // One fault, chosen at random, about this often.
  faultEveryMs: setting("SOAK_FAULT_EVERY_MS", 12_000),
  // How long the run waits, after the load stops, for every task to end and every callback to settle.
  drainSeconds: setting("SOAK_DRAIN_SECONDS", 300),
  workers: setting("SOAK_WORKERS", 2),
  workerConcurrency: setting("SOAK_WORKER_CONCURRENCY", 8),
};

// Credits each tenant starts with: far more than the run spends, so no create is refused for its balance.
export const TENANT_CREDITS = "1000000";
