// Test helpers for sim-core: a temp scenario + state dir, the built gentle-ai binary, and in-process dispatch.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ScenarioSchema } from "../../simulator/scenario/schema.ts";
import type { ScenarioInput } from "../../simulator/scenario/schema.ts";
import { dispatch } from "../../simulator/gentle-ai/dispatch.ts";
import type { Invocation } from "../../simulator/gentle-ai/invocation.ts";
import { identitiesFor } from "../../simulator/state/identities.ts";
import type { Identities } from "../../simulator/state/identities.ts";
import { GENTLE_AI, readLineageState, spawnGentleAi } from "../support/gentle-ai-sim.ts";
import type { Run, RunOptions } from "../support/gentle-ai-sim.ts";
import { failureEnvelope } from "../support/go-oracles.ts";
import { tracked } from "../support/tracked.ts";

export { GENTLE_AI, ROOT } from "../support/gentle-ai-sim.ts";
export type { Run, RunOptions } from "../support/gentle-ai-sim.ts";
export { goIndent } from "../support/go-oracles.ts";
export const HANDSHAKE = { GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1" };
export const V2 = "gentle-ai.review-integration/v2";

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
    return spawnGentleAi(this, argv, opts);
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
    return readLineageState(this.stateDir);
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

  /** A reviewer/v1 result gentle-ai admits for a lens slot: the shape the fake pi produces (independently written here). */
  piResult(lens: string, evidence = "inspected every changed path of the frozen candidate"): string {
    return JSON.stringify({
      subject_hash: this.ids.subjectHash(lens as never),
      inspection: { status: "completed", paths: this.ids.manifest.map((m) => m.path) },
      lens,
      findings: [],
      evidence: [evidence],
    }) + "\n";
  }
}

/** A Sim factory for one test file: every Sim it makes is cleaned up after the file's tests. */
export function simFactory(): (scenario?: ScenarioInput) => Sim {
  return tracked((scenario?: ScenarioInput) => new Sim(scenario));
}

/** The failure/v2 envelope a collect-capture refusal prints (optional lineage_id after replayability). */
export function envelope(operation: string, code: string, message: string, next: string, cause: string, lineageId?: string, retrySafe = true, phase = "preflight"): string {
  return failureEnvelope(2, operation, code, message, next, cause, lineageId, retrySafe, phase);
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
