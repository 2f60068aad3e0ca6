// Helpers for the sim-correction tests: scenarios, binding tokens, and independent oracles for the evidence record
// and the targeted-validation document (values come from identities; layout and digests are recomputed here).
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INVALID } from "../sim-core/helpers.ts";
import { readLineageState, ROOT, spawnGentleAi } from "../support/gentle-ai-sim.ts";
import type { Run, RunOptions } from "../support/gentle-ai-sim.ts";
import { failureEnvelope, goIndent } from "../support/go-oracles.ts";
import { tracked } from "../support/tracked.ts";
import { ScenarioSchema } from "../../simulator/scenario/schema.ts";
import type { ScenarioInput } from "../../simulator/scenario/schema.ts";
import { identitiesFor } from "../../simulator/state/identities.ts";
import type { Identities } from "../../simulator/state/identities.ts";

export { envelope, goIndent, HANDSHAKE, INVALID, ROOT, V2 } from "../sim-core/helpers.ts";
export type { Run } from "../sim-core/helpers.ts";

/**
 * A scenario file and a fresh state dir, created on first run only: suites declared at collection time leave
 * nothing behind when a `-t` filter skips them (vitest then skips their afterAll too).
 */
export class Sim {
  readonly dir = join(tmpdir(), `sim-correction-test-${randomBytes(6).toString("hex")}`);
  readonly scenarioPath = join(this.dir, "scenario.json");
  readonly stateDir = join(this.dir, "state");
  readonly ids: Identities;
  private readonly pending = new Map<string, Buffer | string>();
  private made = false;

  constructor(readonly scenario: ScenarioInput = {}) {
    this.ids = identitiesFor(ScenarioSchema.parse(scenario).lineage.seed);
  }

  private materialize(): void {
    if (this.made) return;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(this.scenarioPath, JSON.stringify(this.scenario));
    for (const [p, b] of this.pending) writeFileSync(p, b);
    this.pending.clear();
    this.made = true;
  }

  /** A file in the temp folder (written when the folder is made) and its absolute path. */
  file(name: string, bytes: Buffer | string): string {
    const p = join(this.dir, name);
    if (this.made) writeFileSync(p, bytes);
    else this.pending.set(p, bytes);
    return p;
  }

  /** Spawns the built simulator binary (shell: false) with only PATH, the sim variables and the given extras. */
  run(argv: readonly string[], opts: RunOptions = {}): Promise<Run> {
    this.materialize();
    return spawnGentleAi(this, argv, opts);
  }

  /** Creates the temp folder now (for tests that put their own files in it). */
  ensure(): string {
    this.materialize();
    return this.dir;
  }

  /** The lineage state file as JSON (undefined before the first write). */
  state(): Record<string, unknown> | undefined {
    return readLineageState(this.stateDir);
  }

  /** Removes the temp folder (a no-op when it was never made). */
  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A Sim factory for one test file: every Sim it makes is cleaned up after the file's tests. */
export function simFactory(): (scenario?: ScenarioInput) => Sim {
  return tracked((scenario?: ScenarioInput) => new Sim(scenario));
}

export const SIM_BIN = join(ROOT, "simulator/bin");
export const PROFILES = ["2.4.0", "2.5.0"] as const;
export const FIX_FINDING_ID = "R1-001";

/** sha256 hex. */
export function sha(b: Buffer | string): string {
  return createHash("sha256").update(b).digest("hex");
}

/** A correction_required scenario at a stage. */
export function correctionScenario(profile: "2.3.0" | "2.4.0" | "2.5.0", stage: string, extra: Partial<ScenarioInput> = {}): ScenarioInput {
  return { profile, ...extra, lineage: { state: "correction_required", correction: { stage: stage as never }, ...(extra.lineage ?? {}) } };
}

/** The capture-evidence binding tokens of the correction (with or without the repository context). */
export function evidenceTokens(s: Sim, opts: { context?: boolean; revisionIndex?: number; target?: string } = {}): string[] {
  const t = [
    `--lineage=${s.ids.lineageId}`,
    `--expected-revision=${s.ids.revision(opts.revisionIndex ?? 0)}`,
    `--target=${opts.target ?? s.ids.correctionTargetIdentity}`,
  ];
  if (opts.context !== false) t.push(`--repository-context=${s.ids.repositoryContext}`);
  return t;
}

/** Independent oracle of the record capture-evidence prints in correction_required (indented Go JSON). */
export function expectedCorrectionRecord(s: Sim, payload: Buffer, outcome: string, mode: "prefixed" | "bare", revisionIndex = 0): string {
  const id = (v: string) => (mode === "bare" ? v.replace(/^sha256:/, "") : v);
  const fields: Record<string, unknown> = {
    schema: "gentle-ai.review-verification-evidence/v2",
    version: 2,
    lineage_id: s.ids.lineageId,
    authority_revision: id(s.ids.revision(revisionIndex)),
    target_identity: id(s.ids.correctionTargetIdentity),
    candidate_tree: s.ids.correctionCandidateTree,
    paths_digest: id(s.ids.correctionPathsDigest),
    paths: [...s.ids.correctionPaths],
    ledger_ids: [FIX_FINDING_ID],
    raw_payload_sha256: id("sha256:" + sha(payload)),
    raw_payload_bytes: payload.length,
    outcome,
    record_digest: "",
  };
  const unsigned = JSON.stringify(fields);
  fields.record_digest = "sha256:" + sha(Buffer.concat([Buffer.from("gentle-ai.review-verification-evidence-record/v2\u0000"), Buffer.from(unsigned)]));
  return goIndent(fields);
}

/** The top-level validation_request of a correction lineage (request hash and correction target). */
export function requestHash(s: Sim, revisionIndex = 0): string {
  return s.ids.requestHash(revisionIndex);
}

/** A targeted-validation document; `fields` picks five-field or three-field bodies. */
export function validationDoc(
  s: Sim,
  opts: { fields?: 3 | 5; hash?: "prefixed" | "bare"; target?: "prefixed" | "bare"; evidence?: string[]; passed?: boolean } = {},
): string {
  const checks = {
    original_criteria: { passed: opts.passed ?? true, evidence: opts.evidence ?? ["criteria hold"] },
    correction_regression: { passed: opts.passed ?? true, evidence: opts.evidence ?? ["no regression"] },
    follow_ups: [],
  };
  if (opts.fields === 3) return JSON.stringify(checks);
  const bare = (v: string, m?: "prefixed" | "bare") => (m === "bare" ? v.replace(/^sha256:/, "") : v);
  return JSON.stringify({
    targeted_validation_request_hash: bare(requestHash(s), opts.hash),
    correction_target_identity: bare(s.ids.correctionTargetIdentity, opts.target),
    ...checks,
  });
}

/** A failure/v1|v2 envelope of review.finalize with a cause (negotiated route). */
export function finalizeEnvelope(cause: string, lineageId: string | undefined, version: 1 | 2 = 2): string {
  return failureEnvelope(version, "review.finalize", "invalid_request", INVALID, "correct_request", cause, lineageId);
}

/** Parses a STATUS stdout. */
export function statusOf(stdout: string): { next_transition: Record<string, unknown>; validation_request?: Record<string, unknown>; authority: { state: string; revision: string } } {
  return JSON.parse(stdout) as never;
}
