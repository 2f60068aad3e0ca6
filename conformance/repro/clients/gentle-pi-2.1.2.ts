// A model of the gentle-pi 2.1.2 correction FINALIZE path, written from the #279 report (never from
// gentle-pi source). Each of its three defects can be switched off, so "fix them in turn" is data:
//   D1  three-field --validation document (toNativeValidatorDocument drops both binding identities)
//   D2  --evidence <file> instead of --captured-evidence=true (NativeFinalizeRequest has no capturedEvidence)
//   D3  captured-evidence identities compared without canonicalisation -> correction-evidence-binding-drift
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  CapturedEvidence,
  CompactTargetedValidation,
  CorrectionClient,
  CorrectionClientContext,
  FinalizeReceipt,
} from "../client-contract.ts";
import { runChild } from "../../process/run-child.ts";

const CONTRACT = "gentle-ai.review-integration/v2";
const PREFIXED = /^sha256:[0-9a-f]{64}$/;
const BARE = /^[0-9a-f]{64}$/;
export const DRIFT_MESSAGE = "captured correction evidence does not match the requested lineage, target, and outcome";

/** gentle-pi's CandidateViewError: a message plus a stable code. */
export class CandidateViewError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "CandidateViewError";
  }
}

/** A refused native call: the provider's reason (envelope `cause`, else stderr) with its code and streams. */
export class NativeReviewError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = "NativeReviewError";
  }
}

interface ValidationRequest {
  readonly requestHash: string;
  readonly lineageId: string;
  readonly expectedRevision: string;
  readonly correctionTargetIdentity: string;
  readonly correctionCandidateTree: string;
  readonly correctionPathsDigest: string;
}

interface StatusView {
  readonly lineageId: string;
  readonly revision: string;
  readonly validationRequest: ValidationRequest | undefined;
}

function str(o: unknown, key: string): string {
  const v = (o as Record<string, unknown> | undefined)?.[key];
  return typeof v === "string" ? v : "";
}

/** The evidence this host captured, kept in process memory (lost across a restart). */
interface Captured {
  readonly record: Record<string, unknown>;
  readonly evidence: Buffer;
  readonly outcome: string;
  readonly status: StatusView;
}

/** One client's state: its context, the defects still present, and what it captured. */
interface ClientState {
  readonly context: CorrectionClientContext;
  readonly defects: ReadonlySet<string>;
  captured: Captured | undefined;
}

/** Builds the client; `context.defects` lists the defects still present (all three for 2.1.2). */
export function createCorrectionClient(context: CorrectionClientContext): CorrectionClient {
  const client: ClientState = { context, defects: new Set(context.defects), captured: undefined };
  return {
    captureEvidence: (request) => captureEvidence(client, request),
    finalize: (request) => finalize(client, request),
  };
}

/** Runs gentle-ai in the target; a refusal throws NativeReviewError with the envelope's cause and code. */
async function gentleAi(context: CorrectionClientContext, argv: string[]): Promise<{ stdout: string }> {
  const answer = await runChild(context.gentleAiExecutable, argv, {
    cwd: context.targetCwd,
    env: context.environment,
    timeoutMs: 60_000,
  });
  const stdout = answer.stdout.toString("utf8");
  const stderr = answer.stderr.toString("utf8");
  if (answer.exitCode === 0) return { stdout };
  let cause = stderr.trim().replace(/^Error: /, "");
  let code = "";
  try {
    const envelope = JSON.parse(stdout) as Record<string, unknown>;
    if (typeof envelope["cause"] === "string") cause = envelope["cause"];
    if (typeof envelope["code"] === "string") code = envelope["code"];
  } catch {
    const m = /\[([a-z_]+)\]\s*$/.exec(stderr);
    if (m) code = m[1] as string;
  }
  throw new NativeReviewError(cause, code, answer.exitCode, stderr);
}

async function status(context: CorrectionClientContext): Promise<StatusView> {
  const { stdout } = await gentleAi(context, [
    "review",
    "status",
    "--contract",
    CONTRACT,
    "--cwd",
    context.targetCwd,
    "--projection",
    "workspace",
    "--next-transition",
  ]);
  const s = JSON.parse(stdout) as Record<string, unknown>;
  const vr = s["validation_request"];
  return {
    lineageId: str(s["authority"], "lineage_id"),
    revision: str(s["authority"], "revision"),
    validationRequest:
      vr === undefined
        ? undefined
        : {
            requestHash: str(vr, "request_hash"),
            lineageId: str(vr, "lineage_id"),
            expectedRevision: str(vr, "expected_revision"),
            correctionTargetIdentity: str(vr, "correction_target_identity"),
            correctionCandidateTree: str(vr, "correction_candidate_tree"),
            correctionPathsDigest: str(vr, "correction_paths_digest"),
          },
  };
}

// D3 lives here: with the defect the four identity fields pass through as plain strings.
function decodeEvidence(defects: ReadonlySet<string>, body: Record<string, unknown>): Record<string, unknown> {
  const canon = (v: unknown): unknown =>
    defects.has("D3") || typeof v !== "string" || !BARE.test(v) ? v : `sha256:${v}`;
  return {
    ...body,
    authority_revision: canon(body["authority_revision"]),
    target_identity: canon(body["target_identity"]),
    paths_digest: canon(body["paths_digest"]),
    raw_payload_sha256: canon(body["raw_payload_sha256"]),
  };
}

function stage(prefix: string, files: Record<string, Buffer>): { dir: string; paths: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o700);
  const paths: Record<string, string> = {};
  for (const [name, bytes] of Object.entries(files)) {
    const p = join(dir, name);
    writeFileSync(p, bytes, { mode: 0o600 });
    paths[name] = p;
  }
  return { dir, paths };
}

async function captureEvidence(
  client: ClientState,
  { outcome, evidence }: { readonly outcome: string; readonly evidence: Buffer },
): Promise<CapturedEvidence> {
  const { context } = client;
  const view = await status(context);
  const vr = view.validationRequest;
  if (!vr) throw new CandidateViewError("provider STATUS carries no validation_request", "correction-request-missing");
  const staged = stage("gentle-ai-evidence-", { "evidence.txt": evidence });
  try {
    // 2.1.2 calls capture-evidence without --contract and reads the record from stdout.
    const { stdout } = await gentleAi(context, [
      "review",
      "capture-evidence",
      "--cwd",
      context.targetCwd,
      "--lineage",
      view.lineageId,
      "--target",
      vr.correctionTargetIdentity,
      "--expected-revision",
      view.revision,
      "--outcome",
      outcome,
      "--input",
      staged.paths["evidence.txt"] as string,
    ]);
    const record = decodeEvidence(client.defects, JSON.parse(stdout) as Record<string, unknown>);
    client.captured = { record, evidence, outcome, status: view };
    return { record };
  } finally {
    rmSync(staged.dir, { recursive: true, force: true });
  }
}

async function finalize(
  client: ClientState,
  { validation }: { readonly validation: CompactTargetedValidation },
): Promise<FinalizeReceipt> {
  const { context, defects } = client;
  const view = await status(context);
  const vr = view.validationRequest;
  const captured = client.captured;
  // The evidence binding check runs before the native launch, on what this process captured.
  if (captured) checkCapturedBinding(captured);
  if (!defects.has("D1")) checkProviderBinding(vr, validation);
  const document = validationDocument(defects, validation, vr);
  const files: Record<string, Buffer> = { "validation.json": Buffer.from(JSON.stringify(document)) };
  if (defects.has("D2")) {
    if (!captured)
      throw new CandidateViewError("no evidence document to send in this process", "correction-evidence-missing");
    files["evidence.txt"] = captured.evidence;
  }
  const staged = stage("gentle-ai-finalize-", files);
  try {
    const argv = [
      "review",
      "finalize",
      "--contract",
      CONTRACT,
      "--cwd",
      context.targetCwd,
      "--lineage",
      view.lineageId,
      "--validation",
      staged.paths["validation.json"] as string,
    ];
    if (defects.has("D2")) argv.push("--evidence", staged.paths["evidence.txt"] as string);
    else argv.push("--captured-evidence=true");
    const { stdout } = await gentleAi(context, argv);
    return { stdout };
  } finally {
    rmSync(staged.dir, { recursive: true, force: true });
  }
}

/** The captured record must still name the lineage, revision, correction candidate and outcome STATUS gave. */
function checkCapturedBinding(captured: Captured): void {
  const r = captured.record;
  const want = captured.status.validationRequest as ValidationRequest;
  const drift =
    r["lineage_id"] !== captured.status.lineageId ||
    r["authority_revision"] !== captured.status.revision ||
    r["target_identity"] !== want.correctionTargetIdentity ||
    r["candidate_tree"] !== want.correctionCandidateTree ||
    r["paths_digest"] !== want.correctionPathsDigest ||
    r["outcome"] !== captured.outcome;
  if (drift) throw new CandidateViewError(DRIFT_MESSAGE, "correction-evidence-binding-drift");
}

/** Fixed D1 fails closed on an absent or non-canonical provider binding. */
function checkProviderBinding(vr: ValidationRequest | undefined, validation: CompactTargetedValidation): void {
  if (!vr || !PREFIXED.test(vr.requestHash) || !PREFIXED.test(vr.correctionTargetIdentity)) {
    throw new CandidateViewError(
      "provider validation_request binding is absent or not canonical",
      "correction-binding-unavailable",
    );
  }
  if (validation.request_hash !== vr.requestHash.slice("sha256:".length)) {
    throw new CandidateViewError(
      "targeted validation request_hash does not match the provider validation_request",
      "correction-request-mismatch",
    );
  }
}

// D1 lives here: with the defect the document carries the three caller fields and neither binding identity.
function validationDocument(
  defects: ReadonlySet<string>,
  validation: CompactTargetedValidation,
  vr: ValidationRequest | undefined,
): Record<string, unknown> {
  const followUps = validation.follow_ups.map((row) => ({
    observation: row.summary,
    proof_refs: [...row.proof_refs],
  }));
  return defects.has("D1")
    ? {
        original_criteria: validation.original_criteria,
        correction_regression: validation.correction_regression,
        follow_ups: followUps,
      }
    : {
        targeted_validation_request_hash: (vr as ValidationRequest).requestHash,
        correction_target_identity: (vr as ValidationRequest).correctionTargetIdentity,
        original_criteria: validation.original_criteria,
        correction_regression: validation.correction_regression,
        follow_ups: followUps,
      };
}
