import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseReproductionFile } from "../../../conformance/repro/parse.ts";
import { runReproduction } from "../../../conformance/repro/run.ts";
import { RELAY_HOST_MARGIN_MS } from "../../../conformance/repro/steps/relay.ts";
import { MAX_STRETCH } from "../../../conformance/process/load-clock.ts";
import { containment } from "../../../conformance/process/containment.ts";
import { eventually, processIdentities, startedSince } from "../../support/processes.ts";

// A relay that never settles: it launches one process in the host's group, one in a session of its own that keeps
// its environment, and one that detaches fully (its own session, cwd /, no fds, an empty environment, through a middle
// process that exits at once), each carrying its folder in its argv; it writes their pids and the host's, and never
// answers.
const NEVER_SETTLES = `import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
const here = fileURLToPath(new URL(".", import.meta.url));
const idle = (options) => spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)", here], options);
const FULLY = \`require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)", \${JSON.stringify(here)}], { detached: true, cwd: "/", stdio: "ignore", env: {} }).unref()\`;
export async function runReviewHostRelaySlot(request) {
  const grouped = idle({ stdio: "ignore" });
  const detached = idle({ stdio: "ignore", detached: true, env: { ...request.environment } });
  spawn(process.execPath, ["-e", FULLY], { detached: true, cwd: "/", stdio: "ignore", env: {} });
  writeFileSync(new URL("./pids.json", import.meta.url), JSON.stringify({ host: process.pid, grouped: grouped.pid, detached: detached.pid }));
  return new Promise(() => {});
}
`;

// The bound derives from the step's own pi and gentle-ai bounds (1 ms each): two gentle-ai legs, pi, the margin.
const BOUND_MS = 2 * 1 + 1 + RELAY_HOST_MARGIN_MS;

const REPRO = `title a relay that never settles
phase the relay call never answers
scenario reviewing.json
relay slot=0 client=never.mjs pi-timeout-ms=1 gentle-ai-timeout-ms=1
expect name=RelayHostTimeout kind=host-timeout hostTimeoutMs=${BOUND_MS}
expect message='runReviewHostRelaySlot did not settle within ${BOUND_MS}ms (the relay''s own bounds plus ${RELAY_HOST_MARGIN_MS}ms); its host was killed with its process tree'
-- reviewing.json --
{ "name": "never-settles", "profile": "2.5.0", "lineage": { "state": "reviewing" } }
`;

describe("the relay step runs in the relay host", () => {
  it(
    "a relay that never settles ends the step with a typed host-timeout outcome and leaves no process behind, however detached",
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "repro-never-"));
      try {
        writeFileSync(join(dir, "never.mjs"), NEVER_SETTLES);
        const file = join(dir, "never.txtar");
        writeFileSync(file, REPRO);
        const lines: string[] = [];
        const before = processIdentities();
        const contained = containment() === "pid-namespace";
        const started = Date.now();
        const summary = await runReproduction(parseReproductionFile(file), { out: (l) => lines.push(l) });
        const wallMs = Date.now() - started;
        expect(lines.filter((l) => l.includes("MISMATCH"))).toEqual([]);
        expect(summary).toEqual({ ok: true, mismatches: 0, checks: 2, steps: 1, skipped: 0, harnessErrors: [] });
        // Load-scaled: never before the bound, never past its hard stretch (plus STATUS and the sandbox).
        expect(wallMs).toBeGreaterThanOrEqual(BOUND_MS);
        expect(wallMs).toBeLessThan(BOUND_MS * MAX_STRETCH + 30_000);
        expect(existsSync(join(dir, "pids.json"))).toBe(true);
        const pids = JSON.parse(readFileSync(join(dir, "pids.json"), "utf8")) as Record<string, number>;
        expect(Object.keys(pids).sort()).toEqual(["detached", "grouped", "host"]);
        expect(pids["host"]).not.toBe(process.pid);
        // The host runs in a PID namespace of its own, as `run`'s do: its pids are the namespace's, and nothing it
        // started outlives it, however it detached. The process-tree fallback cannot hold the fully detached one.
        const left = (): { pid: number; argv: string[] }[] => startedSince(before, [dir], true);
        await eventually(() => left().length === (contained ? 0 : 1), 5_000);
        const escaped = left();
        for (const p of escaped) process.kill(p.pid, "SIGKILL");
        expect(escaped.length).toBe(contained ? 0 : 1);
        if (contained) expect(pids["host"]).toBeLessThan(10);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
