import { defineConfig } from "vitest/config";

// Two projects, told apart by the file name. `unit` (`*.unit.test.ts`): tests that run in their worker and start no
// Node process (no simulator, relay, CLI or tsx child; git and tar for fixtures are fine), so `npm run test:unit` is
// quick and needs no build. A setup file makes a Node spawn throw there. `e2e` (every other `*.test.ts`): only it
// builds dist/ first (global setup). A unit test sits beside its source or under test/, like its neighbours.
const UNIT = ["**/*.unit.test.ts"];

// e2e files share their workers (isolate: false): a fresh fork and module graph for each of ~100 files cost ~38 s of
// module import a run, against 12-30 s shared. These files vi.mock a harness module, which needs a graph that has not
// loaded it yet, so they keep a worker of their own. test/support/shared-worker-guard.ts fails any other file that
// mocks a module.
const OWN_WORKER = ["test/conformance/goldens/replay.test.ts", "test/conformance/release/release-e2e.test.ts"];

// Machines like this one (and CI) set NODE_EXTRA_CA_CERTS to the system CA bundle, and every Node start then reads and
// parses it: 0.06 s of CPU, three times a bare start. The suite starts about 2,500 Node processes (simulators, relay
// hosts, CLIs) and none of them speaks TLS (GitHub is mocked with msw, npm runs offline), so the test run's workers
// and everything they start go without it. The harness's own runs already give relays a neutral environment.
delete process.env.NODE_EXTRA_CA_CERTS;

// Subprocess-heavy suite on a 2-core machine: forks, generous per-test bounds, and three workers. Many e2e files
// mostly wait on their children (a bound that must pass, a hang that must be killed); with two workers, two such files
// meeting left both cores idle (27-35 core-seconds a run), and a third worker fills that time.
export default defineConfig({
  test: {
    exclude: ["node_modules/**", "dist/**", "**/fixtures/**"],
    pool: "forks",
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          isolate: false,
          include: UNIT,
          setupFiles: ["test/support/unit-no-node-spawn.ts", "test/support/shared-worker-guard.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          isolate: false,
          include: ["**/*.test.ts"],
          exclude: [...UNIT, ...OWN_WORKER],
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/support/shared-worker-guard.ts"],
        },
      },
      { extends: true, test: { name: "e2e-own-worker", include: OWN_WORKER, globalSetup: ["test/global-setup.ts"] } },
    ],
  },
});
