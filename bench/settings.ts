// The sizes of one `npm run bench`, chosen so that the whole run stays within a few minutes on a 2-core machine
// while each measured window is long enough to be stable.
export const SETTINGS = {
  // Concurrent HTTP connections of the load generator (the figure).
  connections: 50,
  // HTTP loads: a warm-up of each side, then `rounds` rounds of `roundSeconds` on each side in turn.
  warmupSeconds: 3,
  rounds: 3,
  roundSeconds: 5,
  // The service worker's concurrency, and graphile-worker's in the no-op reference.
  workerConcurrency: 16,
  // No-op jobs drained for the jobs/s reference.
  noopJobs: 20_000,
  // Tasks created and then run to completion, on the cheap capability and on speech.
  completionTasks: 5_000,
  speechCompletionTasks: 300,
  // Tasks created one at a time, this far apart, for the admission-to-running latency (and no-op jobs likewise).
  latencySamples: 300,
  latencySpacingMs: 20,
  // Sent first the same way and not timed, on both sides: a worker process started for the phase pays for its
  // warm-up (compiling its code, opening its connections) on its first tasks, as the HTTP loads' first seconds are.
  // The service's code is optimized over its first few hundred tasks: one worker timed by task number on an idle
  // machine gave p50 6.7 ms for tasks 0–20, 5.3 ms for 20–120, then 4.3–4.8 ms in each stretch up to the 1,620th.
  latencyWarmup: 300,
  // Long video tasks held pending at the emulator at once, and for how long after the last one was submitted.
  inFlightTasks: 10_000,
  inFlightHoldSeconds: 15,
  // Tenants sharing the worker in the completion and latency phases' second run (the first is one tenant's).
  sharingTenants: 8,
  // One tenant's backlog of prompt enhancements, and another tenant's tasks timed from admission to start beside it.
  backlogTasks: 1_000,
  backlogSamples: 100,
  // Image-understanding tasks drained by one tenant and then by two, each holding a worker this long while its
  // input downloads; with the worker concurrency above, then with the one `npm start` gives a local stack.
  drainTasks: 32,
  drainDownloadMs: 2_000,
  localWorkerConcurrency: 4,
};

// Request bodies: speech (the create goal), prompt enhancement (a capability whose vendor call costs next to
// nothing, for throughput to completion) and a long video that the emulator is scripted to leave pending.
export const SPEECH_BODY = JSON.stringify({ voice: "en_female_aria", input: "Hello from the benchmark." });
export const ENHANCE_BODY = JSON.stringify({ prompt: "a red kite over a windy beach", duration: 5, aspect_ratio: "16:9" });
export const VIDEO_BODY = JSON.stringify({ model: "vendorA-h3", prompt: "a slow pan across a mountain lake at dawn" });
