// Bench section "hang": how soon a relay that hangs gets its verdict. The hostile relays of
// test/conformance/runner/hostile-relays/ hang in each leg; each run of the same eight clauses at 2.4.0 (the default
// 20 s bound) is timed beside the clean relay's, alternating. Target: at most 4× the clean run, where a harness
// that waited out the bound would need at least one bound (20 s) per hanging case.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { harnessPaths } from "../conformance/paths.ts";
import { measureAlternating, median, medianRatio, type BenchCommand } from "./measure.ts";
import { registerBenchSection, type BenchRow } from "./registry.ts";
import { HANG_LEGS as LEGS, hangRunArgs } from "../test/conformance/runner/hostile-relays/hang-selection.ts";

const ROUNDS = 3;
const TARGET = 4;
const HOSTILE = "test/conformance/runner/hostile-relays";

registerBenchSection({
  name: "hang",
  run(): BenchRow[] {
    const paths = harnessPaths();
    const dir = mkdtempSync(join(tmpdir(), "bench-hang-"));
    try {
      const run = (label: string, relay: string): BenchCommand => ({
        label,
        command: process.execPath,
        args: [join(paths.root, "conformance", "bin", "relay-conformance"), ...hangRunArgs(join(paths.root, relay))],
        cwd: dir,
        // A hanging relay fails its clauses: exit 1 is the verdict being timed.
        exitCode: [0, 1],
      });
      const times = measureAlternating(
        [run("clean", "relay/index.ts"), ...LEGS.map((leg) => run(leg, `${HOSTILE}/hangs-in-${leg}.ts`))],
        ROUNDS,
        0,
      );
      return [
        { label: "the clean relay, 8 clauses at 2.4.0", medianMs: median(times.get("clean") ?? []) },
        ...LEGS.map((leg) => ({
          label: `a relay that hangs in the ${leg} leg: wall ÷ the clean run`,
          medianMs: median(times.get(leg) ?? []),
          ratio: medianRatio(times, leg, "clean"),
          target: TARGET,
        })),
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
