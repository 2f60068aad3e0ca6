// The pi reviewer transport: exec.LookPath semantics, the bound (process group killed), Go exit texts, scratch removal.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lookPath, runPiReviewer } from "./role-transport.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
// Made in beforeAll so a filtered run that skips this file creates nothing.
let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "role-transport-test-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scenario(name: string, body: object): Record<string, string> {
  const scenarioPath = join(dir, `${name}.json`);
  writeFileSync(scenarioPath, JSON.stringify(body));
  const tmp = join(dir, `${name}-tmp`);
  mkdirSync(tmp, { recursive: true });
  const nodeDir = join(dir, "node-bin");
  mkdirSync(nodeDir, { recursive: true });
  try {
    symlinkSync(process.execPath, join(nodeDir, "node"));
  } catch {
    // already linked
  }
  return {
    PATH: `${join(ROOT, "simulator/bin")}:${nodeDir}`,
    TMPDIR: tmp,
    GENTLE_AI_SIM_SCENARIO: scenarioPath,
    GENTLE_AI_SIM_STATE: join(dir, `${name}-state`),
  };
}

describe("lookPath", () => {
  it("skips directories and non-executables, reports Go's not-found text", () => {
    const a = join(dir, "a");
    const b = join(dir, "b");
    mkdirSync(join(a, "pi"), { recursive: true });
    mkdirSync(b, { recursive: true });
    writeFileSync(join(b, "pi"), "#!/bin/sh\n");
    chmodSync(join(b, "pi"), 0o644);
    expect(lookPath("pi", `${a}:${b}`)).toEqual({ ok: false, err: 'exec: "pi": executable file not found in $PATH' });
    expect(lookPath("pi", "")).toEqual({ ok: false, err: 'exec: "pi": executable file not found in $PATH' });
    chmodSync(join(b, "pi"), 0o755);
    expect(lookPath("pi", `${a}:${b}`)).toEqual({ ok: true, path: join(b, "pi") });
  });

  it("refuses an executable found relative to the current directory (Go ErrDot)", () => {
    // vitest runs from the repository root, where simulator/bin/pi exists.
    expect(lookPath("pi", "simulator/bin")).toEqual({
      ok: false,
      err: 'exec: "pi": cannot run executable found relative to current directory',
    });
  });
});

describe("runPiReviewer", () => {
  it("kills a hanging pi at the bound and removes the scratch dir", async () => {
    const env = scenario("hang", { faults: [{ program: "pi", fault: { kind: "hang" } }] });
    const started = Date.now();
    const run = await runPiReviewer(Buffer.from("prompt\n"), env, 1500);
    expect(run).toEqual({ kind: "failed", err: "signal: killed", stderr: "" });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(readdirSync(env.TMPDIR!)).toEqual([]);
  });

  it("renders a signal death with Go's signal text", async () => {
    const env = scenario("segv", { faults: [{ program: "pi", fault: { kind: "signal", signal: "SIGSEGV" } }] });
    const run = await runPiReviewer(Buffer.from("prompt\n"), env);
    expect(run).toEqual({ kind: "failed", err: "signal: segmentation fault", stderr: "" });
    expect(readdirSync(env.TMPDIR!)).toEqual([]);
  });

  it("returns pi's stdout on success", async () => {
    const env = scenario("ok", { pi: { result: { kind: "bytes", bytes: { text: "verdict\n" } } } });
    const run = await runPiReviewer(Buffer.from("prompt\n"), env);
    expect(run).toEqual({ kind: "ok", stdout: Buffer.from("verdict\n") });
    expect(readdirSync(env.TMPDIR!)).toEqual([]);
  });
});
