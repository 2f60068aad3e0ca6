// SIGINT / SIGTERM during a long command: its children's process groups are killed, its temp folders removed,
// one line says so, and the exit code is 130 / 143. Each spawn gets a private TMPDIR to inspect afterwards.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { launcher, leftovers, privateTmps, root, withoutProgress } from "../../support/cli-process.ts";
import { eventually, processesUsing } from "../../support/processes.ts";

const tmps = privateTmps();
afterAll(() => tmps.cleanup());

// A relay that never settles: the run is certainly still going (adapter child alive) when the signal comes.
const hanging = [
  "--relay",
  "test/conformance/clauses/broken-relays/hangs.ts",
  "--grep",
  "^PI-ARGV-FIXED$",
  "--profile",
  "2.4.0",
  "--timeout-ms",
  "120000",
  "--seed",
  "1",
];

describe("SIGINT / SIGTERM: children killed, temp folders removed, one line, exit 130 / 143", () => {
  it.each([
    // [command, args, signal, what shows it is under way: a stdout pattern, or "temp" (its temp folder exists),
    // children alive at the signal]
    ["run", ["run", ...hanging], "SIGINT", /^profiles 2\.4\.0; 1 clauses; seed 1/m, true],
    ["run", ["run", ...hanging], "SIGTERM", /^profiles 2\.4\.0/m, true],
    ["matrix", ["matrix", ...hanging], "SIGINT", "temp", true],
    ["replay", ["replay"], "SIGTERM", /^PASS golden /m, false],
    ["verify", ["verify", "--binary", "simulator/bin/gentle-ai"], "SIGINT", "temp", false],
    ["repro", ["repro", "367"], "SIGINT", /^ {2}file: {4}golden\/repro\/367\.txtar$/m, false],
  ] as const)(
    "%s %j on %s",
    async (command, args, signal, underway, busy) => {
      const tmp = tmps.make();
      const child = spawn(launcher, [...args], {
        cwd: root,
        env: { ...process.env, TMPDIR: tmp },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
      const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
      const self = child.pid ?? -1;
      expect(
        await eventually(() => (underway === "temp" ? leftovers(tmp).length > 0 : underway.test(stdout)), 60_000),
      ).toBe(true);
      if (busy) expect(await eventually(() => processesUsing(tmp, [self]).length > 0, 20_000)).toBe(true);
      child.kill(signal);
      const code = await exited;
      expect(code).toBe(signal === "SIGINT" ? 130 : 143);
      const lines = withoutProgress(stderr)
        .split("\n")
        .filter((l) => l !== "");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^relay-conformance ${command}: interrupted by ${signal}; stopped \\d+ child process(es)?, removed \\d+ temp folders?$`,
        ),
      );
      expect(leftovers(tmp)).toEqual([]);
      expect(await eventually(() => processesUsing(tmp).length === 0, 3000)).toBe(true);
    },
    120_000,
  );
});

describe("run --keep", () => {
  it("names the kept temp root on stderr and leaves it on SIGINT, still with no process left", async () => {
    const tmp = tmps.make();
    const child = spawn(launcher, ["run", "--keep", ...hanging], {
      cwd: root,
      env: { ...process.env, TMPDIR: tmp },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    expect(
      await eventually(() => processesUsing(tmp, [child.pid ?? -1]).length > 0 && stderr.includes("--keep"), 60_000),
    ).toBe(true);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const kept = /^relay-conformance: --keep: the run's temp folders stay in (\S+)$/m.exec(stderr)?.[1];
    expect(kept?.startsWith(`${tmp}/relay-conformance-`)).toBe(true);
    expect(leftovers(tmp)).toEqual([kept!.slice(tmp.length + 1)]);
    expect(stderr).toMatch(
      /^relay-conformance run: interrupted by SIGINT; stopped \d+ child process(es)?, removed 0 temp folders$/m,
    );
    expect(await eventually(() => processesUsing(tmp).length === 0, 3000)).toBe(true);
  }, 120_000);
});

describe("SIGKILL: the CLI cannot trap it", () => {
  it("the adapter child, its stdin closed mid-job, ends the job's processes and itself", async () => {
    const tmp = tmps.make();
    const relay = ["--relay", "test/conformance/clauses/broken-relays/hangs-with-children.ts", ...hanging.slice(2)];
    const child = spawn(launcher, ["run", ...relay], {
      cwd: root,
      env: { ...process.env, TMPDIR: tmp },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("close", (_code, signal) => resolve(signal)),
    );
    const isSleeper = (pid: number): boolean => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "latin1").startsWith("/bin/sleep\0");
      } catch {
        return false; // gone
      }
    };
    try {
      // Both of the relay's sleepers run (the detached one carries the case's folders), so the job is in flight.
      expect(
        await eventually(() => processesUsing(tmp, [child.pid ?? -1]).filter(isSleeper).length === 2, 60_000),
      ).toBe(true);
      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
      // What the dead CLI left in TMPDIR stays (nothing can remove it), but no process of the run survives it.
      expect(await eventually(() => processesUsing(tmp).length === 0, 5000)).toBe(true);
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);
});

describe("the top-level help documents the interruption exit codes", () => {
  it("names 130, 143 and 141 and what happens first", () => {
    const r = spawnSync(launcher, ["--help"], { cwd: root, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("130 / 143 interrupted by\nSIGINT / SIGTERM and 141 output closed");
    expect(r.stdout).toContain("child processes are killed and its temp\nfolders removed first.\n");
  });
});
