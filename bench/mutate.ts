// Bench section "mutate": `relay-conformance mutate` on our relay (its default targets: relay/index.ts and what it
// imports from relay/; all clauses and profiles, seed 1, concurrency 2), against the naive estimate of the issue:
// mutants × one full default run, that run measured in the same section. Targets: at least 10× faster than naive
// (ratio <= 0.1), the whole mutation run under 10 minutes, and a 10-line change (`--since`) under 60 s.
import { resolve } from "node:path";
import { CATALOGUE } from "../conformance/clauses/index.ts";
import { DEFAULT_RUNS, DEFAULT_TIMEOUT_MS } from "../conformance/clauses/catalogue-options.ts";
import { mutateRelay, type MutateCatalogueOptions, type MutateOptions } from "../conformance/mutate/mutate.ts";
import { defaultTargets } from "../conformance/mutate/targets.ts";
import { harnessPaths } from "../conformance/paths.ts";
import { runCatalogue } from "../conformance/runner/run-catalogue.ts";
import { PROFILES } from "../simulator/scenario/schema.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registerBenchSection, type BenchRow } from "./registry.ts";

const NAIVE_TARGET = 0.1;
const WALL_TARGET_MS = 600_000;
const SINCE_TARGET_MS = 60_000;
/** The "10-line change": ten lines of the relay's slot runner, as `--since` would select them. */
const CHANGED_FILE = "relay/run-slot.ts";
const CHANGED_LINES = { from: 30, count: 10 };

/** Figures of one measurement. */
export interface MutateBenchFigures {
  /** Mutants tested: the ignored ones are never run, so the naive estimate leaves them out too. */
  readonly mutants: number;
  readonly ignored: number;
  readonly wallMs: number;
  readonly fullRunMs: number;
  readonly sinceMutants: number;
  readonly sinceWallMs: number;
}

/** Measures once: a full default run, the whole mutation run, the 10-line `--since` run. */
export async function measureMutate(): Promise<MutateBenchFigures> {
  const paths = harnessPaths();
  const relay = paths.defaultRelay;
  // One set of catalogue options for the full run and the mutation run, so the ratio compares like with like.
  const catalogue: MutateCatalogueOptions = {
    clauses: CATALOGUE,
    profiles: PROFILES,
    runs: DEFAULT_RUNS,
    seed: 1,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    concurrency: 2,
  };
  const options: MutateOptions = {
    ...catalogue,
    relay,
    folder: resolve(paths.root, "relay"),
    files: defaultTargets(relay),
  };
  let started = performance.now();
  await runCatalogue({
    ...catalogue,
    relayModule: relay,
    counterexampleDir: join(tmpdir(), "relay-conformance-bench-counterexamples"),
  });
  const fullRunMs = performance.now() - started;
  started = performance.now();
  const whole = await mutateRelay(options);
  const wallMs = performance.now() - started;
  const changed = new Set(Array.from({ length: CHANGED_LINES.count }, (_, i) => CHANGED_LINES.from + i));
  started = performance.now();
  const since = await mutateRelay({ ...options, lines: new Map([[resolve(paths.root, CHANGED_FILE), changed]]) });
  const sinceWallMs = performance.now() - started;
  const tested = (r: typeof whole): number => r.mutants.filter((m) => m.status !== "Ignored").length;
  return {
    mutants: tested(whole),
    ignored: whole.mutants.length - tested(whole),
    wallMs,
    fullRunMs,
    sinceMutants: tested(since),
    sinceWallMs,
  };
}

/** The section's rows: a ratio is a wall time over its target's reference, so `<= target` reads as the goal. */
export function mutateRows(f: MutateBenchFigures): BenchRow[] {
  const naiveMs = f.mutants * f.fullRunMs;
  return [
    { label: "one full default run (the naive unit)", medianMs: f.fullRunMs },
    {
      label: `naive estimate: ${f.mutants} mutants × one full run (${f.ignored} ignored, never run)`,
      medianMs: naiveMs,
    },
    {
      label: `mutate our relay: ${f.mutants} mutants, wall ÷ naive`,
      medianMs: f.wallMs,
      ratio: f.wallMs / naiveMs,
      target: NAIVE_TARGET,
    },
    { label: "mutate our relay: wall ÷ 10 minutes", medianMs: f.wallMs, ratio: f.wallMs / WALL_TARGET_MS, target: 1 },
    {
      label: `--since, a 10-line change (${CHANGED_FILE}:${CHANGED_LINES.from}-${CHANGED_LINES.from + CHANGED_LINES.count - 1}, ${f.sinceMutants} mutants): wall ÷ 60 s`,
      medianMs: f.sinceWallMs,
      ratio: f.sinceWallMs / SINCE_TARGET_MS,
      target: 1,
    },
  ];
}

registerBenchSection({ name: "mutate", run: async () => mutateRows(await measureMutate()) });
