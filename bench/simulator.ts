// Bench section: start-up cost of the simulator bins against `node -e 0` (target: median ratio <= 1.5).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { registerBenchSection, type BenchRow } from "./registry.ts";
import { measureAlternating, median, medianRatio, type BenchCommand } from "./measure.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const TARGET = 1.5;

/** The first relay slot's materialize argv, taken from `review status --agent pi` exactly as the relay gets it. */
function materializeArgs(env: Record<string, string>, cwd: string): string[] {
  const run = spawnSync(
    join(ROOT, "simulator/bin/gentle-ai"),
    [
      "review",
      "status",
      "--contract",
      "gentle-ai.review-integration/v2",
      "--cwd",
      cwd,
      "--projection",
      "workspace",
      "--agent",
      "pi",
      "--next-transition",
    ],
    { cwd, env, shell: false },
  );
  if (run.status !== 0) throw new Error(`bench: status failed: ${run.stderr.toString("utf8")}`);
  const status = JSON.parse(run.stdout.toString("utf8")) as {
    next_transition?: {
      collect?: { inputs?: Array<{ arguments?: Array<{ name: string; value: string; token?: string }> }> };
    };
  };
  const args = status.next_transition?.collect?.inputs?.[0]?.arguments;
  if (!args) throw new Error("bench: STATUS offered no collect input");
  return ["review", "capture-result", ...args.map((a) => a.token ?? `--${a.name}=${a.value}`)];
}

registerBenchSection({
  name: `simulator start-up (${ROUNDS} alternating rounds, median wall time; target <= ${TARGET}x node -e 0)`,
  run(): BenchRow[] {
    const dir = mkdtempSync(join(tmpdir(), "sim-bench-"));
    try {
      const env = { PATH: process.env.PATH ?? "", TMPDIR: dir, GENTLE_AI_SIM_STATE: join(dir, "state") };
      const handshake = { ...env, GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1" };
      const gentleAi = join(ROOT, "simulator/bin/gentle-ai");
      const materialize = materializeArgs(handshake, dir);
      const prompt = Buffer.from(
        `GENTLE_AI_REVIEW_BINDING {"lens":"review-risk","subject_hash":"sha256:${"a".repeat(64)}"}\nGENTLE_AI_REVIEW_NAME_STATUS\nM\tsrc/a.ts\nGENTLE_AI_REVIEW_NAME_STATUS_END\n`,
      );
      // Floors for reference: what any ESM entry, and one importing the builtins the simulator needs, costs.
      const emptyEsm = join(dir, "empty.mjs");
      writeFileSync(emptyEsm, "");
      const builtinsEsm = join(dir, "builtins.mjs");
      writeFileSync(
        builtinsEsm,
        'import "node:module";import "node:fs";import "node:path";import "node:os";import "node:crypto";\n',
      );
      const commands: BenchCommand[] = [
        { label: "node -e 0", command: process.execPath, args: ["-e", "0"], env },
        { label: "floor: node <empty .mjs>", command: process.execPath, args: [emptyEsm], env },
        {
          label: "floor: node <.mjs importing node:module/fs/path/os/crypto>",
          command: process.execPath,
          args: [builtinsEsm],
          env,
        },
        { label: "gentle-ai version", command: gentleAi, args: ["version"], env },
        {
          label: "gentle-ai review capture-result --agent=pi --materialize=true",
          command: gentleAi,
          args: materialize,
          env: handshake,
          cwd: dir,
        },
        {
          label: "pi (default reviewer result, small prompt)",
          command: join(ROOT, "simulator/bin/pi"),
          args: ["--print"],
          env,
          input: prompt,
        },
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
