import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files run in parallel, each against its own cloned database; two cores, so keep the fan-out small.
    maxWorkers: 3,
    pool: "forks",
  },
});
