// The warm simulator (simulator/warm/) against the process path it stands in for: the same calls give the same bytes,
// exit codes and transcript lines; calls whose behaviour lives in a process are handed back and still behave; a
// missing or dead server is a clear exit 70; nothing outlives a stop or a dead parent.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPAQUE_PI_REVIEWER_ARGV } from "../../relay/pi-adapter.ts";
import { startWarmSimulator, type WarmSimulator } from "../../simulator/warm/start.ts";
import { ROOT } from "../support/gentle-ai-sim.ts";
import { isGone } from "../support/processes.ts";

const HANDSHAKE = { GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1" };

interface Result {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Runs a simulator launcher (shell: false) with exactly this environment. */
function call(bin: string, argv: readonly string[], env: Record<string, string>, cwd: string, stdin?: Buffer): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [...argv], { cwd, env, shell: false, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.on("error", () => undefined);
    child.stdin.end(stdin ?? Buffer.alloc(0));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), code, signal }));
  });
}

/** Transcript lines without what differs between any two runs (pid and timing). */
function transcriptOf(path: string): unknown[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => {
      const { pid: _pid, timing: _timing, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return rest;
    });
}

async function waitUntil(predicate: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return predicate();
}

let warm: WarmSimulator;
let work: string;
let realBin: { gentleAi: string; pi: string };
/** Launchers whose dist/ holds only the warm client: a call that was not served fails loudly there. */
let servedOnly: { gentleAi: string; pi: string };

beforeAll(async () => {
  warm = await startWarmSimulator();
  work = mkdtempSync(join(tmpdir(), "sim-warm-test-"));
  realBin = { gentleAi: join(ROOT, "simulator/bin/gentle-ai"), pi: join(ROOT, "simulator/bin/pi") };
  const pkg = join(work, "served-only");
  mkdirSync(join(pkg, "simulator/bin"), { recursive: true });
  mkdirSync(join(pkg, "dist"));
  for (const f of ["gentle-ai", "pi", "launch.cjs", "package.json"]) copyFileSync(join(ROOT, "simulator/bin", f), join(pkg, "simulator/bin", f));
  copyFileSync(join(ROOT, "dist/warm-client.cjs"), join(pkg, "dist/warm-client.cjs"));
  servedOnly = { gentleAi: join(pkg, "simulator/bin/gentle-ai"), pi: join(pkg, "simulator/bin/pi") };
});

afterAll(async () => {
  await warm.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A fresh folder with a repo, a scenario file and its own state and transcript. */
function sandbox(name: string, scenario: object): { repo: string; env: Record<string, string> } {
  const dir = join(work, name);
  const repo = join(dir, "repo");
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(dir, "scenario.json"), JSON.stringify(scenario));
  return {
    repo,
    env: {
      PATH: process.env["PATH"] ?? "",
      TMPDIR: dir,
      GENTLE_AI_SIM_SCENARIO: join(dir, "scenario.json"),
      GENTLE_AI_SIM_STATE: join(dir, "state"),
      GENTLE_AI_SIM_TRANSCRIPT: join(dir, "transcript.jsonl"),
    },
  };
}

/** STATUS, the materialize, pi, submit and resubmit legs, refusals and other verbs, one after the other. */
async function lifecycle(bins: { gentleAi: string; pi: string }, name: string, extraEnv: Record<string, string>): Promise<{ results: Result[]; transcript: unknown[] }> {
  // Both runs use one repo path: identities derive from it, and the transcripts record it.
  const { env } = sandbox(name, { profile: "2.4.0" });
  const repo = join(work, "shared-repo");
  mkdirSync(repo, { recursive: true });
  const gentle = { ...env, ...HANDSHAKE, ...extraEnv };
  const statusArgv = ["review", "status", "--contract", "gentle-ai.review-integration/v2", "--cwd", repo, "--projection", "workspace", "--agent", "pi", "--next-transition"];
  const results: Result[] = [];
  const run = async (bin: string, argv: readonly string[], e: Record<string, string>, stdin?: Buffer): Promise<Result> => {
    const r = await call(bin, argv, e, repo, stdin);
    results.push(r);
    return r;
  };
  await run(bins.gentleAi, ["version"], gentle);
  await run(bins.gentleAi, statusArgv, { ...env, ...extraEnv }); // no handshake: refused
  const status = await run(bins.gentleAi, statusArgv, gentle);
  const input = (JSON.parse(status.stdout.toString("utf8")) as { next_transition: { collect: { inputs: { arguments: { token: string }[]; submission: { operation_token: string; argument_tokens: string[] } }[] } } }).next_transition.collect.inputs[0]!;
  const prompt = await run(bins.gentleAi, ["review", "capture-result", ...input.arguments.map((a) => a.token)], gentle);
  const reviewed = await run(bins.pi, OPAQUE_PI_REVIEWER_ARGV, { ...env, ...extraEnv }, prompt.stdout);
  const resultFile = join(env.TMPDIR!, "result.txt");
  const submitArgv = (file: string): string[] => ["review", input.submission.operation_token, ...input.submission.argument_tokens.map((t) => t.replaceAll("{{value}}", file))];
  writeFileSync(join(env.TMPDIR!, "empty.txt"), "");
  await run(bins.gentleAi, submitArgv(join(env.TMPDIR!, "empty.txt")), gentle); // admission refusal: [invalid_request]
  writeFileSync(resultFile, reviewed.stdout);
  await run(bins.gentleAi, submitArgv(resultFile), gentle);
  await run(bins.gentleAi, submitArgv(resultFile), gentle); // idempotent resubmission
  await run(bins.gentleAi, statusArgv, gentle);
  await run(bins.gentleAi, ["review", "capture-result", "--bogus-flag"], gentle);
  // capabilities names the executable it runs as, so both runs use the real launcher here.
  await run(realBin.gentleAi, ["review", "capabilities", "--contract", "gentle-ai.review-integration/v2"], gentle);
  // The runs differ only in their own folder (where the result files were staged).
  const transcript = transcriptOf(env.GENTLE_AI_SIM_TRANSCRIPT!).map((e) => JSON.parse(JSON.stringify(e).replaceAll(env.TMPDIR!, "<run>")) as unknown);
  return { results, transcript };
}

// version, STATUS refused, STATUS, materialize, pi, admission refusal, submit, resubmit, STATUS, unknown flag, capabilities
const CODES = [0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0];

describe("warm simulator: served calls", () => {
  it("answers a whole review lifecycle with the process path's bytes, exit codes and transcript lines", async () => {
    const cold = await lifecycle(realBin, "cold", {});
    const served = await lifecycle(servedOnly, "warm", warm.env);
    expect(served.results).toHaveLength(cold.results.length);
    served.results.forEach((r, i) => {
      const c = cold.results[i]!;
      expect({ i, code: r.code, signal: r.signal, stderr: r.stderr.toString("latin1") }).toEqual({ i, code: c.code, signal: c.signal, stderr: c.stderr.toString("latin1") });
      expect(r.stdout.equals(c.stdout), `call ${i} stdout`).toBe(true);
    });
    // The run covered successes and refusals alike.
    expect(cold.results.map((r) => r.code)).toEqual(CODES);
    expect(served.transcript).toHaveLength(CODES.length);
    expect(served.transcript).toEqual(cold.transcript);
  });
});

describe("warm simulator: payloads", () => {
  it("carries a 4 MiB binary prompt to pi and its echo back byte for byte", async () => {
    const { repo, env } = sandbox("big", { profile: "2.4.0", pi: { result: { kind: "echo" } } });
    const prompt = randomBytes(4 * 1024 * 1024);
    const r = await call(servedOnly.pi, OPAQUE_PI_REVIEWER_ARGV, { ...env, ...warm.env, GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX: "0" }, repo, prompt);
    expect(r.code).toBe(0);
    expect(r.stdout.equals(prompt)).toBe(true);
    const [entry] = transcriptOf(env.GENTLE_AI_SIM_TRANSCRIPT!) as { stdin: { length: number; sha256: string } }[];
    expect(entry!.stdin).toEqual({ length: prompt.length, sha256: createHash("sha256").update(prompt).digest("hex") });
  });
});

describe("warm simulator: configuration", () => {
  it("resolves a relative GENTLE_AI_SIM_WARM against the caller's cwd", async () => {
    const { repo, env } = sandbox("relative", { profile: "2.4.0" });
    const r = await call(servedOnly.gentleAi, ["version"], { ...env, GENTLE_AI_SIM_WARM: relative(repo, warm.dir) }, repo);
    expect(r.code).toBe(0);
    expect(r.stdout.toString("utf8")).toMatch(/2\.4\.0/);
  });
});

describe("warm simulator: calls handed back to the launcher", () => {
  it("runs a pi whose scenario scripts a fault in the launcher's process, with the prompt it already read", async () => {
    const { repo, env } = sandbox("pi-fault", { profile: "2.4.0", pi: { result: { kind: "echo" } }, faults: [{ program: "pi", fault: { kind: "delay", ms: 1 } }] });
    const prompt = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x41]);
    const r = await call(realBin.pi, OPAQUE_PI_REVIEWER_ARGV, { ...env, ...warm.env }, repo, prompt);
    expect(r.code).toBe(0);
    expect(r.stdout.equals(prompt)).toBe(true);
    const [entry] = transcriptOf(env.GENTLE_AI_SIM_TRANSCRIPT!) as { faults: unknown[]; stdin: { base64: string }; stdinRead: boolean }[];
    expect(entry!.faults).toEqual([{ kind: "delay", ms: 1 }]);
    expect(Buffer.from(entry!.stdin.base64, "base64").equals(prompt)).toBe(true);
    expect(entry!.stdinRead).toBe(true);
    // The served-only launchers cannot run it: proof that it was handed back, not served.
    const refused = await call(servedOnly.pi, OPAQUE_PI_REVIEWER_ARGV, { ...env, ...warm.env }, repo, prompt);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.toString("utf8")).toContain("pi.cjs");
  });

  it("keeps process-level faults: a scripted signal still kills the launcher", async () => {
    const { repo, env } = sandbox("signal", { profile: "2.4.0", faults: [{ program: "gentle-ai", verb: "version", fault: { kind: "signal", signal: "SIGTERM" } }] });
    const r = await call(realBin.gentleAi, ["version"], { ...env, ...warm.env }, repo);
    expect({ code: r.code, signal: r.signal, stdout: r.stdout.length }).toEqual({ code: null, signal: "SIGTERM", stdout: 0 });
  });

  it("runs a gentle-ai call that reads stdin (--input=-) in the launcher, as the process path does", async () => {
    const { repo, env } = sandbox("stdin", { profile: "2.4.0" });
    const argv = ["review", "capture-result", "--lineage=review-0000000000000001", "--input=-"];
    const served = await call(realBin.gentleAi, argv, { ...env, ...HANDSHAKE, ...warm.env }, repo, Buffer.from("{}"));
    const cold = await call(realBin.gentleAi, argv, { ...env, ...HANDSHAKE, GENTLE_AI_SIM_STATE: join(env.TMPDIR!, "state-cold"), GENTLE_AI_SIM_TRANSCRIPT: join(env.TMPDIR!, "cold.jsonl") }, repo, Buffer.from("{}"));
    expect({ code: served.code, stderr: served.stderr.toString("utf8") }).toEqual({ code: cold.code, stderr: cold.stderr.toString("utf8") });
    expect(served.stdout.equals(cold.stdout)).toBe(true);
    expect((await call(servedOnly.gentleAi, argv, { ...env, ...HANDSHAKE, ...warm.env }, repo, Buffer.from("{}"))).stderr.toString("utf8")).toContain("gentle-ai.cjs");
  });

  it("leaves a configuration error to the launcher: exit 2 and the same message", async () => {
    const { repo, env } = sandbox("config", { profile: "2.4.0" });
    const bad = { ...env, GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX: "many" };
    const served = await call(realBin.gentleAi, ["version"], { ...bad, ...warm.env }, repo);
    const cold = await call(realBin.gentleAi, ["version"], bad, repo);
    expect(served).toEqual(cold);
    expect(served.code).toBe(2);
    expect(served.stderr.toString("utf8")).toBe('gentle-ai-sim: GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX: expected a non-negative integer byte count, got "many"\n');
  });
});

describe("warm simulator: lifecycle and failures", () => {
  it("exits 70 naming the folder when no server is there, or when the server died", async () => {
    const { repo, env } = sandbox("no-server", { profile: "2.4.0" });
    const missing = join(work, "no-such-spool");
    const r1 = await call(realBin.gentleAi, ["version"], { ...env, GENTLE_AI_SIM_WARM: missing }, repo);
    expect(r1.code).toBe(70);
    expect(r1.stderr.toString("utf8")).toMatch(new RegExp(`^gentle-ai-sim: warm simulator ${missing}: cannot send the call: ENOENT`));
    const empty = join(work, "empty-spool");
    mkdirSync(empty);
    const r2 = await call(realBin.pi, ["--print"], { ...env, GENTLE_AI_SIM_WARM: empty }, repo, Buffer.from("p"));
    expect({ code: r2.code, stderr: r2.stderr.toString("utf8") }).toEqual({ code: 70, stderr: `gentle-ai-sim: warm simulator ${empty}: no server is running (server.json is missing)\n` });

    const doomed = await startWarmSimulator();
    process.kill(doomed.pid, "SIGKILL");
    expect(await waitUntil(() => isGone(doomed.pid), 5_000)).toBe(true);
    const r3 = await call(realBin.gentleAi, ["version"], { ...env, ...doomed.env }, repo);
    expect({ code: r3.code, stderr: r3.stderr.toString("utf8") }).toEqual({ code: 70, stderr: `gentle-ai-sim: warm simulator ${doomed.dir}: the server (pid ${doomed.pid}) exited before answering\n` });
    await doomed.stop();
    expect(existsSync(doomed.dir)).toBe(false);
  });

  it("stop() ends the server and removes its folder; a second stop is harmless", async () => {
    const w = await startWarmSimulator();
    expect(JSON.parse(readFileSync(join(w.dir, "server.json"), "utf8"))).toEqual({ pid: w.pid });
    await w.stop();
    await w.stop();
    expect(isGone(w.pid)).toBe(true);
    expect(existsSync(w.dir)).toBe(false);
  });

  it("never outlives its parent: a SIGKILLed owner takes the server and its folder with it", async () => {
    const script = join(work, "owner.mts");
    writeFileSync(script, `import { startWarmSimulator } from ${JSON.stringify(join(ROOT, "simulator/warm/start.ts"))};\nconst w = await startWarmSimulator();\nprocess.stdout.write(JSON.stringify({ pid: w.pid, dir: w.dir }) + "\\n");\nsetInterval(() => {}, 1000);\n`);
    // node --import tsx, not the tsx CLI: the CLI runs the script in a child of its own, which a SIGKILL would orphan.
    const owner = spawn(process.execPath, ["--import", "tsx", script], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    const line = await new Promise<string>((resolve, reject) => {
      owner.stdout.once("data", (c: Buffer) => resolve(c.toString("utf8")));
      owner.once("exit", (code) => reject(new Error(`the owner exited ${code} before starting the server`)));
    });
    const { pid, dir } = JSON.parse(line) as { pid: number; dir: string };
    expect(isGone(pid)).toBe(false);
    owner.kill("SIGKILL");
    expect(await waitUntil(() => isGone(pid), 5_000)).toBe(true);
    // The owner had no chance to remove the spool folder: the server did, on its way out.
    expect(existsSync(dir)).toBe(false);
  });

  it("is built by npm ci: the server and client bundles exist", () => {
    expect(spawnSync(process.execPath, ["-e", `require(${JSON.stringify(join(ROOT, "dist/warm-client.cjs"))})`]).status).toBe(0);
    expect(existsSync(join(ROOT, "dist/warm-server.cjs"))).toBe(true);
  });
});

describe("warm simulator: what the server hands back", () => {
  it("hands back role captures (they may spawn pi) before counting or producing anything", async () => {
    const { serveCall } = await import("../../simulator/warm/serve-call.ts");
    const { decodeResponse } = await import("../../simulator/warm/protocol.ts");
    const { repo, env } = sandbox("role", { profile: "2.4.0" });
    const request = { v: 1, program: "gentle-ai", argv: ["review", "capture-refuter", "--execute"], env: { ...env, ...HANDSHAKE }, cwd: repo, pid: process.pid, executablePath: realBin.gentleAi, stdin: null } as const;
    const answer = decodeResponse(Buffer.concat(await serveCall(request, null)));
    expect(answer.header).toEqual({ kind: "local", why: "review capture-refuter may spawn pi" });
    expect(existsSync(env.GENTLE_AI_SIM_TRANSCRIPT!)).toBe(false);
    expect(existsSync(join(env.GENTLE_AI_SIM_STATE!, "calls"))).toBe(false);
  });
});
