// Test helpers for sim-core: a temp scenario + state dir, the built gentle-ai binary, and in-process dispatch.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ScenarioSchema } from "../../simulator/scenario/schema.ts";
import type { ScenarioInput } from "../../simulator/scenario/schema.ts";
import { dispatch } from "../../simulator/gentle-ai/dispatch.ts";
import type { Invocation } from "../../simulator/gentle-ai/invocation.ts";
import { identitiesFor } from "../../simulator/state/identities.ts";
import type { Identities } from "../../simulator/state/identities.ts";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const GENTLE_AI = join(ROOT, "simulator/bin/gentle-ai");
export const HANDSHAKE = { GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1" };
export const V2 = "gentle-ai.review-integration/v2";

/** One finished process (or in-process dispatch). */
export interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutBytes: Buffer;
  readonly code: number | null;
}

export interface RunOptions {
  readonly env?: Record<string, string>;
  readonly stdin?: Buffer | string;
  readonly cwd?: string;
}

/** A scenario file and a fresh state dir in one temp folder. */
export class Sim {
  readonly dir: string;
  readonly scenarioPath: string;
  readonly stateDir: string;
  readonly ids: Identities;

  constructor(readonly scenario: ScenarioInput = {}) {
    this.dir = mkdtempSync(join(tmpdir(), "sim-core-test-"));
    this.scenarioPath = join(this.dir, "scenario.json");
    this.stateDir = join(this.dir, "state");
    writeFileSync(this.scenarioPath, JSON.stringify(scenario));
    this.ids = identitiesFor(ScenarioSchema.parse(scenario).lineage.seed);
  }

  /** Writes a file in the temp folder and returns its absolute path. */
  file(name: string, bytes: Buffer | string): string {
    const p = join(this.dir, name);
    writeFileSync(p, bytes);
    return p;
  }

  /** Spawns the built simulator binary (shell: false) with only the given extra environment. */
  run(argv: readonly string[], opts: RunOptions = {}): Promise<Run> {
    return new Promise((done, fail) => {
      const env: Record<string, string> = {
        PATH: process.env["PATH"] ?? "",
        GENTLE_AI_SIM_SCENARIO: this.scenarioPath,
        GENTLE_AI_SIM_STATE: this.stateDir,
        ...opts.env,
      };
      const child = spawn(GENTLE_AI, argv, { shell: false, env, cwd: opts.cwd ?? this.dir, stdio: ["pipe", "pipe", "pipe"] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (c: Buffer) => out.push(c));
      child.stderr.on("data", (c: Buffer) => err.push(c));
      child.on("error", fail);
      child.stdin.on("error", () => undefined);
      child.stdin.end(opts.stdin ?? "");
      child.on("close", (code) => {
        const stdoutBytes = Buffer.concat(out);
        done({ stdout: stdoutBytes.toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), stdoutBytes, code });
      });
    });
  }

  /** Runs dispatch in this process with a hand-built Invocation (fast path for exhaustive refusal tables). */
  async invoke(argv: readonly string[], opts: RunOptions = {}): Promise<Run> {
    const stdin = Buffer.from(opts.stdin ?? "");
    const cwd = opts.cwd ?? this.dir;
    const invocation: Invocation = {
      argv,
      env: { ...opts.env },
      cwd,
      scenario: ScenarioSchema.parse(this.scenario),
      scenarioDir: this.dir,
      stateDir: this.stateDir,
      executablePath: GENTLE_AI,
      readStdin: () => stdin,
      readFile: (p) => readFileSync(resolve(cwd, p)),
    };
    const o = await dispatch(invocation);
    return { stdout: o.stdout.toString("utf8"), stderr: o.stderr.toString("utf8"), stdoutBytes: o.stdout, code: o.exitCode };
  }

  /** The lineage state file as JSON (undefined before the first write). */
  state(): Record<string, unknown> | undefined {
    try {
      return JSON.parse(readFileSync(join(this.stateDir, "lineage.json"), "utf8")) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }

  /** Removes the temp folder. */
  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The seven binding tokens of a lens slot as STATUS renders them. */
  binding(lens: string, order: number, revisionIndex = 0): string[] {
    const ids = this.ids;
    return [
      `--lineage=${ids.lineageId}`,
      `--expected-revision=${ids.revision(revisionIndex)}`,
      `--target=${ids.targetIdentity}`,
      `--repository-context=${ids.repositoryContext}`,
      `--lens=${lens}`,
      `--order=${order}`,
      `--subject-hash=${ids.subjectHash(lens as never)}`,
    ];
  }

  /** The reviewer result the fake pi produces for a lens (independently written here). */
  piResult(lens: string): string {
    return JSON.stringify({
      subject_hash: this.ids.subjectHash(lens as never),
      inspection: { status: "completed", paths: this.ids.manifest.map((m) => m.path) },
      lens,
      findings: [],
      evidence: [],
    }) + "\n";
  }
}

/** Go-style indented JSON oracle: JSON.stringify(…, 2) plus Go's HTML escaping and the trailing newline. */
export function goIndent(value: unknown): string {
  return (
    JSON.stringify(value, null, 2)
      .replace(/</g, "\\u003c")
      .replace(/>/g, "\\u003e")
      .replace(/&/g, "\\u0026") + "\n"
  );
}

/** The failure/v2 envelope a collect-capture refusal prints (optional lineage_id after replayability). */
export function envelope(operation: string, code: string, message: string, next: string, cause: string, lineageId?: string, retrySafe = true, phase = "preflight"): string {
  return goIndent({
    schema: "gentle-ai.review-integration.failure/v2",
    contract: V2,
    operation,
    phase,
    code,
    message,
    mutation_outcome: "not_started",
    authority_applicability: "not_evaluated",
    retry_safe: retrySafe,
    replayability: "not_replayable",
    ...(lineageId === undefined ? {} : { lineage_id: lineageId }),
    required_inputs: [],
    next_action: next,
    cause,
  });
}

export const INVALID = "The negotiated review request is invalid.";

/** goIndent plus the changed_path_manifest compact-per-line rendering (independent oracle of encodeReviewJson). */
export function goReviewJson(value: unknown): string {
  const esc = (s: string) => s.replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
  const render = (v: unknown, depth: number, key?: string): string => {
    const pad = "  ".repeat(depth);
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      const items = v.map((x) => pad + "  " + (key === "changed_path_manifest" ? esc(JSON.stringify(x)) : render(x, depth + 1)));
      return "[\n" + items.join(",\n") + "\n" + pad + "]";
    }
    if (v !== null && typeof v === "object") {
      const entries = Object.entries(v as Record<string, unknown>);
      if (entries.length === 0) return "{}";
      return "{\n" + entries.map(([k, x]) => `${pad}  ${esc(JSON.stringify(k))}: ${render(x, depth + 1, k)}`).join(",\n") + "\n" + pad + "}";
    }
    return esc(JSON.stringify(v));
  };
  return render(value, 0) + "\n";
}
