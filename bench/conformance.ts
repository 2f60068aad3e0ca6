// Bench section "conformance": wall time of the default `relay-conformance run` (all clauses, all profiles, default
// property runs, concurrency 2) against our relay, and its throughput in cases per second. Target: under 60 s.
import { CATALOGUE } from "../conformance/clauses/index.ts";
import { DEFAULT_RUNS, DEFAULT_TIMEOUT_MS } from "../conformance/cli/commands/run.ts";
import { harnessPaths } from "../conformance/paths.ts";
import { runCatalogue } from "../conformance/runner/run-catalogue.ts";
import { PROFILES } from "../simulator/scenario/schema.ts";
import { registerBenchSection, type BenchRow } from "./registry.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";

const TARGET_MS = 60_000;

/** Figures of one default run. */
export interface ConformanceBenchFigures {
  readonly wallMs: number;
  readonly cases: number;
  readonly casesPerSecond: number;
  readonly clauses: number;
  readonly failed: number;
}

/** Runs the default catalogue once and measures it. */
export async function measureConformance(): Promise<ConformanceBenchFigures> {
  const started = performance.now();
  const report = await runCatalogue({
    relayModule: harnessPaths().defaultRelay,
    clauses: CATALOGUE,
    profiles: [...PROFILES],
    runs: DEFAULT_RUNS,
    seed: 1,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    concurrency: 2,
    counterexampleDir: join(tmpdir(), "relay-conformance-bench-counterexamples"),
  });
  const wallMs = performance.now() - started;
  return { wallMs, cases: report.cases, casesPerSecond: report.cases / (wallMs / 1000), clauses: report.clauses.length, failed: report.summary.failed };
}

function rows(f: ConformanceBenchFigures): BenchRow[] {
  return [
    { label: `default run wall time (${f.clauses} clauses, ${f.cases} cases, ${f.failed} failed)`, medianMs: f.wallMs, ratio: f.wallMs / TARGET_MS, minRatio: f.wallMs / TARGET_MS, target: 1 },
    { label: `per case (${f.casesPerSecond.toFixed(2)} cases/s)`, medianMs: f.wallMs / f.cases },
  ];
}

registerBenchSection({ name: "conformance", run: async () => rows(await measureConformance()) });

/** Bench entry: prints the default run's wall time and cases per second. */
export async function benchConformance(): Promise<void> {
  const f = await measureConformance();
  process.stdout.write(
    `\n## conformance\n\ndefault run: ${(f.wallMs / 1000).toFixed(1)} s wall for ${f.cases} cases (${f.casesPerSecond.toFixed(2)} cases/s), ${f.clauses} clauses, ${f.failed} failed; target < ${TARGET_MS / 1000} s: ${f.wallMs < TARGET_MS ? "yes" : "NO"}\n`,
  );
}

if (process.argv[1]?.endsWith("bench/conformance.ts")) await benchConformance();
