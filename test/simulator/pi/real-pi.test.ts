// The fake pi against the real pi CLI (test/support/real-pi.ts installs it from npm into a cache): for each argv of
// test/support/pi-argv-table.ts both run, and stdout, stderr and the exit code must be equal byte for byte, and equal
// to the table's recorded bytes (so a new real pi that answers differently is seen here, not only in the fake).
// No model is ever called: every row is refused or answered (`--version`) at start-up, the real pi gets a fresh
// HOME whose one model sits on a closed loopback port (a configured pi, as the fake stands for, prints no
// "No models available" warning) and PI_OFFLINE=1, no API key and no network.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realPi } from "../../support/real-pi.ts";
import { PI_ARGV_TABLE, REAL_PI_VERSION, type PiArgvRow } from "../../support/pi-argv-table.ts";
import { runSim } from "../../support/sim-world.ts";
import { spawnProcess, type Run } from "../../support/spawn-process.ts";

const real = await realPi(REAL_PI_VERSION);
const CLOSED_MODEL = {
  providers: {
    closed: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "none", models: [{ id: "none" }] },
  },
};

interface Side {
  readonly exit: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const side = (run: Run): Side => ({ exit: run.code, stdout: run.stdoutText, stderr: run.stderrText });

describe.skipIf(typeof real === "string")(
  typeof real === "string"
    ? `real pi ${REAL_PI_VERSION}: ${real}; the comparison is skipped`
    : `fake pi against real pi ${REAL_PI_VERSION}`,
  () => {
    const root = mkdtempSync(join(tmpdir(), "real-pi-"));
    const answers = new Map<PiArgvRow, { real: Side; fake: Side }>();

    /**
     * One world per call: fresh HOME (with the closed-port model for the real pi) and TMPDIR, the same env for both.
     */
    async function call(row: PiArgvRow, n: number): Promise<void> {
      const world = join(root, String(n));
      mkdirSync(join(world, "home/.pi/agent"), { recursive: true });
      mkdirSync(join(world, "tmp"));
      writeFileSync(join(world, "home/.pi/agent/models.json"), JSON.stringify(CLOSED_MODEL));
      const env = {
        PATH: "/usr/local/bin:/usr/bin:/bin",
        HOME: join(world, "home"),
        TMPDIR: join(world, "tmp"),
        CI: "1",
        PI_OFFLINE: "1",
      };
      const pi = real as Exclude<typeof real, string>;
      // pi enables Node's compile cache; one shared cache halves its start-up, which is all these calls cost.
      const realRun = await spawnProcess(pi.node, [pi.cli, ...row.argv], {
        env: { ...env, NODE_COMPILE_CACHE: pi.compileCache },
        cwd: join(world, "tmp"),
      });
      const fakeRun = await runSim("pi", row.argv, { env, cwd: join(world, "tmp") });
      answers.set(row, { real: side(realRun), fake: side(fakeRun) });
    }

    beforeAll(async () => {
      // Two at a time: the real pi takes a second or two of CPU to start.
      const queue = PI_ARGV_TABLE.map((row, n) => [row, n] as const);
      const worker = async (): Promise<void> => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) await call(...next);
      };
      await Promise.all([worker(), worker()]);
    }, 400_000);
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it.each(PI_ARGV_TABLE.map((row) => [row.name, row] as const))("%s", (_name, row) => {
      const { real: r, fake: f } = answers.get(row)!;
      expect({ real: r, fake: f }).toEqual({
        real: { exit: row.exit, stdout: row.stdout, stderr: row.stderr },
        fake: r,
      });
    });
  },
);
