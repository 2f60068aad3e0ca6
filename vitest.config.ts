import { defineConfig } from "vitest/config";

// Two projects. `unit`: tests that run in their worker and start no Node process (no simulator, relay, CLI or tsx
// child; git and tar for fixtures are fine), so `npm run test:unit` is quick and needs no build. A setup file makes
// a Node spawn throw there. `e2e`: every other test file; only it builds dist/ first (global setup).
// A new test file is e2e until it is listed here.
const UNIT = [
  "conformance/fidelity/contracts-tree.test.ts",
  "conformance/lanes/tap.test.ts",
  "simulator/contract/*.test.ts",
  "simulator/gentle-ai/argv/*.test.ts",
  "simulator/gentle-ai/verbs/admission.test.ts",
  "simulator/output/*.test.ts",
  "simulator/repository/*.test.ts",
  "simulator/state/evidence-record.test.ts",
  "simulator/state/identities.test.ts",
  "test/conformance/cli/cli-bad-input.test.ts",
  "test/conformance/cli/cli-usage.test.ts",
  "test/conformance/clauses/harness-units.test.ts",
  "test/conformance/process/load-clock.test.ts",
  "test/conformance/runner/plan-runs.test.ts",
  "test/conformance/runner/prescribed-waits.test.ts",
  "test/conformance/cli/progress.test.ts",
  "test/conformance/report/report.test.ts",
  "test/conformance/status/status-decode.test.ts",
  "test/conformance/goldens/diff.test.ts",
  "test/conformance/goldens/normalise.test.ts",
  "test/import-graph.test.ts",
  "test/package/ci-recipe.test.ts",
  "test/relay/classify.test.ts",
  "test/relay/correction-units.test.ts",
  "test/relay/errors.test.ts",
  "test/relay/properties.test.ts",
  "test/relay/slots.test.ts",
  "test/relay/submission.test.ts",
  "test/relay/timeouts.test.ts",
  "test/conformance/release/install.test.ts",
  "test/conformance/release/ustar.test.ts",
  "test/conformance/repro/parse.test.ts",
  "test/conformance/repro/format-doc.test.ts",
  "test/conformance/diff/normalise-compare.test.ts",
  "test/conformance/repro/txtar.test.ts",
  "test/schemas.test.ts",
  "test/simulator/faults/apply.test.ts",
  "test/simulator/faults/match.test.ts",
  "test/simulator/gentle-ai/route.test.ts",
  "test/simulator/pi/argv.test.ts",
  "test/simulator/runtime/*.test.ts",
  "test/simulator/scenario/format-issues.test.ts",
  "test/simulator/scenario/json-syntax.test.ts",
  "test/support/gentle-ai-digests.test.ts",
];

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
      { extends: true, test: { name: "unit", isolate: false, include: UNIT, setupFiles: ["test/support/unit-no-node-spawn.ts", "test/support/shared-worker-guard.ts"] } },
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
