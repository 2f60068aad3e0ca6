// The harness itself killed with SIGKILL mid-case leaves no process of its run (by a scan of the whole process
// table), and the next run in the same folder passes; two runs at once in one folder share no file or temp folder.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ReportSchema } from "../../../conformance/report/report-schema.ts";
import { launcher, privateTmps, root } from "../../support/cli-process.ts";
import { eventually, processesUsing, processIdentities, startedSince } from "../../support/processes.ts";

const tmps = privateTmps();
const folders: string[] = [];
afterAll(() => {
  tmps.cleanup();
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** A fresh working folder for runs (where counterexamples go by default). */
function folder(): string {
  const f = mkdtempSync(join(tmpdir(), "rc-kill-cwd-"));
  folders.push(f);
  return f;
}

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

function start(
  args: readonly string[],
  cwd: string,
  tmp: string,
): { pid: number; ended: Promise<Ended>; stdout: () => string; kill(signal: NodeJS.Signals): void } {
  const child = spawn(launcher, [...args], {
    cwd,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const ended = new Promise<Ended>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { pid: child.pid ?? -1, ended, stdout: () => stdout, kill: (signal) => child.kill(signal) };
}

const relay = (name: string): string => join(root, "test/conformance/clauses/broken-relays", name);
const ONE = ["--grep", "^PI-ARGV-FIXED$", "--profile", "2.4.0", "--seed", "1"];

describe("SIGKILL of the harness mid-case", () => {
  it("leaves no process of the run after 5 s, and a second run in the same folder right after passes", async () => {
    const before = processIdentities();
    const cwd = folder();
    const tmp = tmps.make();
    const isSleeper = (pid: number): boolean => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "latin1").startsWith("/bin/sleep\0");
      } catch {
        return false;
      }
    };
    const first = start(
      ["run", "--relay", relay("hangs-with-children.ts"), ...ONE, "--timeout-ms", "120000"],
      cwd,
      tmp,
    );
    try {
      // Mid-case: both of the relay's sleepers run.
      expect(await eventually(() => processesUsing(tmp, [first.pid]).filter(isSleeper).length === 2, 60_000)).toBe(
        true,
      );
      first.kill("SIGKILL");
      expect((await first.ended).signal).toBe("SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 5000));
      expect(startedSince(before, [tmp, cwd])).toEqual([]);
    } finally {
      first.kill("SIGKILL");
    }
    const second = await start(["run", ...ONE], cwd, tmp).ended;
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^1 passed, 0 failed, 0 skipped, 0 errored — /m);
  }, 180_000);
});

describe("two runs at once in the same folder", () => {
  it("write their own counterexample files and use their own temp folders", async () => {
    const cwd = folder();
    const tmp = tmps.make();
    const args = [
      "run",
      "--relay",
      relay("substitutes-every-token.ts"),
      "--grep",
      "^PROP-SUBMIT-FORM-EXACT$",
      "--profile",
      "2.4.0",
      "--seed",
      "7",
      "--runs",
      "10",
      "--keep",
    ];
    // The same options, but for the report each writes (the console line is cut to the terminal's width).
    const [a, b] = (await Promise.all(
      ["a.json", "b.json"].map((name) => start([...args, "--json", name], cwd, tmp).ended),
    )) as [Ended, Ended];
    const messages = { a: "", b: "" };
    const saved = (r: Ended): string =>
      /counterexample saved to (\S+);/.exec(r === a ? messages.a : messages.b)?.[1] ?? "";
    messages.a = ReportSchema.parse(JSON.parse(readFileSync(join(cwd, "a.json"), "utf8"))).clauses[0]?.message ?? "";
    messages.b = ReportSchema.parse(JSON.parse(readFileSync(join(cwd, "b.json"), "utf8"))).clauses[0]?.message ?? "";
    const kept = (r: Ended): string => /--keep: the run's temp folders stay in (\S+)$/m.exec(r.stderr)?.[1] ?? "";
    folders.push(kept(a), kept(b));
    expect([a.code, b.code]).toEqual([1, 1]);
    expect(saved(a).startsWith(join(cwd, ".relay-conformance/counterexamples/"))).toBe(true);
    expect(saved(b).startsWith(join(cwd, ".relay-conformance/counterexamples/"))).toBe(true);
    expect(saved(a)).not.toBe(saved(b));
    expect(existsSync(saved(a)) && existsSync(saved(b))).toBe(true);
    expect(kept(a)).not.toBe("");
    expect(kept(a)).not.toBe(kept(b));
  }, 180_000);
});
