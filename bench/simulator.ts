// Bench section: start-up cost of the simulator bins against `node -e 0` (target: median ratio <= 1.5).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { registerBenchSection, type BenchRow } from "./registry.ts";
import { measureAlternating, median, medianRatio, type BenchCommand } from "./measure.ts";
import { ScenarioSchema } from "../simulator/scenario/schema.ts";
import { DEFAULT_SCENARIO_INPUT } from "../simulator/scenario/default.ts";
import { identitiesFor } from "../simulator/state/identities.ts";
import { readLineage } from "../simulator/state/lineage-store.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const TARGET = 1.5;

/** Relay-style materialize tokens for the default scenario's first lens, derived like STATUS derives them. */
function materializeArgs(stateDir: string): string[] {
  const scenario = ScenarioSchema.parse(DEFAULT_SCENARIO_INPUT);
  const ids = identitiesFor(scenario.lineage.seed);
  const lineage = readLineage(stateDir, scenario);
  const lens = scenario.lineage.lenses[0]!;
  return [
    "review",
    "capture-result",
    `--lineage=${ids.lineageId}`,
    `--expected-revision=${ids.revision(lineage.revisionIndex)}`,
    `--target=${ids.targetIdentity}`,
    `--repository-context=${ids.repositoryContext}`,
    `--lens=${lens}`,
    "--order=0",
    `--subject-hash=${ids.subjectHash(lens)}`,
    "--agent=pi",
    "--materialize=true",
  ];
}

registerBenchSection({
  name: `simulator start-up (${ROUNDS} alternating rounds, median wall time; target <= ${TARGET}x node -e 0)`,
  run(): BenchRow[] {
    const dir = mkdtempSync(join(tmpdir(), "sim-bench-"));
    try {
      const env = { PATH: process.env.PATH ?? "", TMPDIR: dir, GENTLE_AI_SIM_STATE: join(dir, "state") };
      const gentleAi = join(ROOT, "simulator/bin/gentle-ai");
      const materialize = materializeArgs(env.GENTLE_AI_SIM_STATE);
      const prompt = Buffer.from(
        `GENTLE_AI_REVIEW_BINDING {"lens":"review-risk","subject_hash":"sha256:${"a".repeat(64)}"}\nGENTLE_AI_REVIEW_NAME_STATUS\nM\tsrc/a.ts\nGENTLE_AI_REVIEW_NAME_STATUS_END\n`,
      );
      // Floors for reference: what any ESM entry, and one importing the builtins the simulator needs, costs.
      const emptyEsm = join(dir, "empty.mjs");
      writeFileSync(emptyEsm, "");
      const builtinsEsm = join(dir, "builtins.mjs");
      writeFileSync(builtinsEsm, 'import "node:module";import "node:fs";import "node:path";import "node:os";import "node:crypto";\n');
      const commands: BenchCommand[] = [
        { label: "node -e 0", command: process.execPath, args: ["-e", "0"], env },
        { label: "floor: node <empty .mjs>", command: process.execPath, args: [emptyEsm], env },
        { label: "floor: node <.mjs importing node:module/fs/path/os/crypto>", command: process.execPath, args: [builtinsEsm], env },
        { label: "gentle-ai version", command: gentleAi, args: ["version"], env },
        {
          label: "gentle-ai review capture-result --agent=pi --materialize=true",
          command: gentleAi,
          args: materialize,
          env: { ...env, GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1" },
        },
        { label: "pi (default reviewer result, small prompt)", command: join(ROOT, "simulator/bin/pi"), args: ["--print"], env, input: prompt },
      ];
      const times = measureAlternating(commands, ROUNDS);
      return commands.map((c, i) => ({
        label: c.label,
        medianMs: median(times.get(c.label)!),
        ...(i === 0
          ? {}
          : {
              ratio: medianRatio(times, c.label, commands[0]!.label),
              minRatio: Math.min(...times.get(c.label)!) / Math.min(...times.get(commands[0]!.label)!),
              target: TARGET,
            }),
      }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
