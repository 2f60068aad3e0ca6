// Bench section "diff": `relay-conformance diff` wall time per compared call, against the process floor of its two
// sides (one bare start of the binary and one of the simulator, the least any differential call can cost). The
// binary is GENTLE_AI_REAL_BINARY when set (a gentle-ai build), else the simulator itself.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { harnessPaths } from "../conformance/paths.ts";
import { median, measureAlternating, timeOnce, type BenchCommand } from "./measure.ts";
import { registerBenchSection, type BenchRow } from "./registry.ts";

const ROUNDS = 3;
const SCRIPT = "golden/diff/help.txtar";

registerBenchSection({
  name: "diff",
  run(): BenchRow[] {
    const paths = harnessPaths();
    const sim = join(paths.root, "simulator", "bin", "gentle-ai");
    const binary = process.env["GENTLE_AI_REAL_BINARY"] ?? sim;
    const dir = mkdtempSync(join(tmpdir(), "bench-diff-"));
    try {
      const json = join(dir, "d.json");
      const diff: BenchCommand = {
        label: "diff",
        command: process.execPath,
        args: [
          join(paths.root, "conformance", "bin", "relay-conformance"),
          "diff",
          "--binary",
          binary,
          "--script",
          join(paths.root, SCRIPT),
          "--json",
          json,
          "--quiet",
        ],
        cwd: dir,
        // A build that diverges still measures the run: 0 and 1 both mean the diff completed.
        exitCode: [0, 1],
      };
      const env = { PATH: "/usr/bin:/bin", HOME: dir, CI: "1", GENTLE_AI_NO_SELF_UPDATE: "1" };
      const floors = measureAlternating(
        [
          { label: "binary", command: binary, args: ["version"], env, cwd: dir },
          { label: "simulator", command: sim, args: ["version"], env, cwd: dir },
        ],
        10,
      );
      const runs = Array.from({ length: ROUNDS }, () => timeOnce(diff));
      const calls = (JSON.parse(readFileSync(json, "utf8")) as { summary: { calls: number } }).summary.calls;
      const perCall = median(runs) / calls;
      const floor = median(floors.get("binary")!) + median(floors.get("simulator")!);
      const who = binary === sim ? "the simulator against itself" : `${binary} against the simulator`;
      return [
        { label: `diff per call (${SCRIPT}, ${calls} calls, ${who})`, medianMs: perCall, ratio: perCall / floor },
        { label: "process floor: one bare start of each side", medianMs: floor },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
