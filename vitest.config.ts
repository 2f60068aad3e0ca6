import { defineConfig } from "vitest/config";

// Subprocess-heavy suite on a 2-core machine: forks, two workers, generous per-test bounds.
export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "dist/**", "**/fixtures/**"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ["test/global-setup.ts"],
  },
});
