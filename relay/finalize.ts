// Correction FINALIZE client (gentle-pi #279): binds the provider-owned targeted validation and captured evidence.
import { isAbsolute } from "node:path";
import { resolveGentleAiBinary } from "./gentle-ai-binary.ts";
import { withPrivateTempFiles } from "./temp-files.ts";
import { DEFAULT_GENTLE_AI_TIMEOUT_MS } from "./timeouts.ts";
import { buildCaptureEvidenceArgv, buildCorrectionStatusArgv, buildNegotiatedFinalizeArgv } from "./correction/argv.ts";
import { runGentleAiCall } from "./correction/call.ts";
import { renderSubmissionDescriptorArgv } from "./correction/descriptor.ts";
import { CORRECTION_FINALIZE_FAILURE, CorrectionFinalizeError } from "./correction/errors.ts";
import {
  assertCorrectionEvidenceBinding,
  decodeVerificationEvidenceRecord,
  type VerificationEvidenceRecord,
  type VerificationOutcome,
} from "./correction/evidence.ts";
import {
  EVIDENCE_REQUIRED_REASON,
  findCollectInput,
  readCorrectionStatus,
  readTargetedValidationBinding,
  statusShowsCapturedEvidence,
  type CorrectionStatusView,
  type TargetedValidationRequestBinding,
} from "./correction/status.ts";
import {
  buildTargetedValidationDocument,
  matchCallerRequestHash,
  type CorrectionValidationInput,
} from "./correction/validation-document.ts";
import { argumentValue } from "./slots.ts";

export * from "./correction/index.ts";

/** Process settings shared by every correction-client call. */
export interface CorrectionClientOptions {
  /**
   * Absolute gentle-ai path; defaults to GENTLE_PI_GENTLE_AI_DEV_BINARY (else an untyped package-local-binary-missing
   * Error).
   */
  readonly gentleAiExecutable?: string;
  /** Repository root: cwd of every call and the `--cwd` of descriptor-less forms. Default process.cwd(). */
  readonly cwd?: string;
  readonly environment?: NodeJS.ProcessEnv;
  /** Bound of each gentle-ai call; ≤ 0 means none. Default 120000. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** A STATUS object plus its exact bytes. */
export interface CorrectionStatusSnapshot {
  readonly status: unknown;
  readonly bytes: Buffer;
}

export interface CaptureCorrectionEvidenceRequest extends CorrectionClientOptions {
  /** STATUS offering `correction_repository_verification_required`. */
  readonly status: unknown;
  /** Raw final verification evidence bytes (staged 0600, passed by path). */
  readonly evidence: Buffer;
  readonly outcome?: VerificationOutcome;
}

export interface CapturedCorrectionEvidence {
  /** The provider's record, identities normalised to `sha256:<64hex>`; persist it to finalize in a fresh process. */
  readonly record: VerificationEvidenceRecord;
  readonly stdout: Buffer;
  readonly argv: readonly string[];
}

export interface FinalizeCorrectionRequest extends CorrectionClientOptions {
  /** STATUS in `correction_required` carrying `validation_request`. */
  readonly status: unknown;
  readonly validation: CorrectionValidationInput;
  /** Captured-evidence discovery; default: STATUS shows passed evidence already captured. */
  readonly capturedEvidence?: boolean;
  /** Raw final evidence document for `--evidence`; fails closed together with captured evidence. */
  readonly evidenceDocument?: Buffer;
  /** The record capture-evidence returned (bytes or decoded), checked for binding drift before launch. */
  readonly evidenceRecord?: VerificationEvidenceRecord | Buffer;
}

export interface FinalizedCorrection {
  readonly stdout: Buffer;
  readonly argv: readonly string[];
  readonly validationDocument: Buffer;
  readonly capturedEvidence: boolean;
}

export interface RunCorrectionFinalizeRequest extends CorrectionClientOptions {
  readonly lineageId?: string;
  readonly validation: CorrectionValidationInput;
  /** Evidence to capture if the provider still asks for it. */
  readonly evidence?: { readonly payload: Buffer; readonly outcome?: VerificationOutcome };
  /** A record captured earlier (e.g. by another process), for the drift check. */
  readonly evidenceRecord?: VerificationEvidenceRecord | Buffer;
}

export interface CorrectionFinalizeRun {
  readonly evidence?: CapturedCorrectionEvidence;
  readonly finalize: FinalizedCorrection;
  /** STATUS after FINALIZE. */
  readonly status: CorrectionStatusSnapshot;
}

const TARGETED_VALIDATION_OPERATION = "external.run_targeted_validation";
const CAPTURE_EVIDENCE_OPERATION = "review.capture-evidence";

interface ResolvedOptions {
  readonly gentleAi: string;
  readonly cwd: string;
  readonly environment: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

function resolveOptions(options: CorrectionClientOptions): ResolvedOptions {
  const environment = options.environment ?? process.env;
  const gentleAi = options.gentleAiExecutable ?? resolveGentleAiBinary(environment);
  if (!isAbsolute(gentleAi)) throw new TypeError("correction client requires an absolute gentle-ai executable path");
  return {
    gentleAi,
    cwd: options.cwd ?? process.cwd(),
    environment,
    timeoutMs: options.timeoutMs ?? DEFAULT_GENTLE_AI_TIMEOUT_MS,
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  };
}

const cleanupFailure =
  (stage: "evidence" | "finalize") =>
  (error: unknown): Error =>
    new CorrectionFinalizeError(
      CORRECTION_FINALIZE_FAILURE.CLEANUP_FAILED,
      stage,
      `correction staging cleanup failed: ${error instanceof Error ? error.message : String(error)}`,
    );

const preflight = (
  code: (typeof CORRECTION_FINALIZE_FAILURE)[keyof typeof CORRECTION_FINALIZE_FAILURE],
  message: string,
): CorrectionFinalizeError => new CorrectionFinalizeError(code, "preflight", message);

function lineageOf(view: CorrectionStatusView, binding: TargetedValidationRequestBinding): string {
  const lineageId = binding.lineageId ?? view.lineageId;
  if (lineageId === undefined)
    throw preflight(CORRECTION_FINALIZE_FAILURE.BINDING_MISSING, "provider STATUS names no lineage");
  return lineageId;
}

/** Runs `review status --contract …/v2 --next-transition` and parses the STATUS object. */
export async function queryCorrectionStatus(
  options: CorrectionClientOptions & { readonly lineageId?: string; readonly projection?: "workspace" | "staged" },
): Promise<CorrectionStatusSnapshot> {
  const o = resolveOptions(options);
  const argv = buildCorrectionStatusArgv({
    cwd: o.cwd,
    ...(options.lineageId !== undefined ? { lineageId: options.lineageId } : {}),
    ...(options.projection !== undefined ? { projection: options.projection } : {}),
  });
  const bytes = await runGentleAiCall(
    {
      gentleAi: o.gentleAi,
      argv,
      cwd: o.cwd,
      environment: o.environment,
      timeoutMs: o.timeoutMs,
      requireQuietStderr: true,
      ...(o.signal ? { signal: o.signal } : {}),
    },
    CORRECTION_FINALIZE_FAILURE.STATUS_FAILED,
    "status",
    "review status",
  );
  try {
    return { status: JSON.parse(bytes.toString("utf8")) as unknown, bytes };
  } catch {
    throw new CorrectionFinalizeError(
      CORRECTION_FINALIZE_FAILURE.STATUS_FAILED,
      "status",
      "gentle-ai review status printed no JSON object",
      {
        stdout: bytes.toString("utf8"),
      },
    );
  }
}

/**
 * Captures correction verification evidence through the provider's evidence input (its descriptor verbatim when
 * rendered, else the 2.2.x-era flag form), decodes and normalises the record, and checks it for binding drift.
 */
export async function captureCorrectionEvidence(
  request: CaptureCorrectionEvidenceRequest,
): Promise<CapturedCorrectionEvidence> {
  const view = readCorrectionStatus(request.status);
  const binding = readTargetedValidationBinding(request.status);
  const input = findCollectInput(view, CAPTURE_EVIDENCE_OPERATION);
  if (input === undefined || view.reasonCode !== EVIDENCE_REQUIRED_REASON) {
    throw preflight(
      CORRECTION_FINALIZE_FAILURE.TRANSITION_UNAVAILABLE,
      "provider STATUS does not ask for correction verification evidence",
    );
  }
  const outcome = request.outcome ?? "passed";
  const lineageId = argumentValue(input, "lineage") ?? lineageOf(view, binding);
  // STATUS names arguments in snake_case (tokens are hyphenated); accept either spelling.
  const expectedRevision =
    argumentValue(input, "expected_revision") ??
    argumentValue(input, "expected-revision") ??
    binding.expectedRevision ??
    view.revision;
  const targetIdentity = argumentValue(input, "target") ?? binding.correctionTargetIdentity;
  if (expectedRevision === undefined)
    throw preflight(CORRECTION_FINALIZE_FAILURE.BINDING_MISSING, "provider evidence input names no expected revision");
  const o = resolveOptions(request);
  // Render once up front so a malformed descriptor fails before anything is staged or launched.
  const argvFor = (path: string): string[] =>
    input.submission !== undefined
      ? renderSubmissionDescriptorArgv(input.submission, { outcome, input: path, value: path })
      : buildCaptureEvidenceArgv({ cwd: o.cwd, lineageId, targetIdentity, expectedRevision, outcome, inputPath: path });
  argvFor("/dev/null");
  let argv: string[] = [];
  const stdout = await withPrivateTempFiles(
    "gentle-pi-correction-evidence-",
    [{ name: "evidence.txt", bytes: request.evidence }],
    (paths) => {
      argv = argvFor(paths[0] as string);
      return runGentleAiCall(
        {
          gentleAi: o.gentleAi,
          argv,
          cwd: o.cwd,
          environment: o.environment,
          timeoutMs: o.timeoutMs,
          requireQuietStderr: false,
          ...(o.signal ? { signal: o.signal } : {}),
        },
        CORRECTION_FINALIZE_FAILURE.EVIDENCE_CAPTURE_FAILED,
        "evidence",
        "review capture-evidence",
      );
    },
    cleanupFailure("evidence"),
  );
  const record = decodeVerificationEvidenceRecord(stdout);
  assertCorrectionEvidenceBinding(record, {
    lineageId,
    authorityRevision: expectedRevision,
    targetIdentity,
    ...(binding.correctionCandidateTree !== undefined ? { candidateTree: binding.correctionCandidateTree } : {}),
    ...(binding.correctionPathsDigest !== undefined ? { pathsDigest: binding.correctionPathsDigest } : {}),
    ...(binding.correctionPaths !== undefined ? { paths: binding.correctionPaths } : {}),
    outcome,
  });
  return { record, stdout, argv };
}

/**
 * Correction FINALIZE: five-field validation document bound to STATUS `validation_request`, `--captured-evidence=true`
 * when the provider holds the record, the provider's finalize descriptor executed verbatim when rendered. Every
 * preflight failure happens before anything launches.
 */
export async function finalizeCorrection(request: FinalizeCorrectionRequest): Promise<FinalizedCorrection> {
  const view = readCorrectionStatus(request.status);
  const binding = readTargetedValidationBinding(request.status);
  matchCallerRequestHash(binding, request.validation.requestHash);
  const lineageId = lineageOf(view, binding);
  const input = findCollectInput(view, TARGETED_VALIDATION_OPERATION);
  const descriptor = input?.submission;
  const descriptorCaptures =
    descriptor?.argumentTokens.some((t) => /^--?captured-evidence(?:=(?:1|t|T|TRUE|true|True))?$/.test(t)) ?? false;
  const capturedEvidence = request.capturedEvidence ?? (statusShowsCapturedEvidence(view) || descriptorCaptures);
  if (request.evidenceDocument !== undefined && (capturedEvidence || descriptorCaptures)) {
    throw preflight(
      CORRECTION_FINALIZE_FAILURE.EVIDENCE_SOURCE_CONFLICT,
      "captured verification evidence and a raw evidence document were both supplied; FINALIZE accepts exactly one final-evidence source",
    );
  }
  if (!capturedEvidence && request.evidenceDocument === undefined) {
    throw preflight(
      CORRECTION_FINALIZE_FAILURE.EVIDENCE_MISSING,
      "correction FINALIZE needs captured verification evidence or an evidence document",
    );
  }
  if (request.evidenceRecord !== undefined) {
    const record = Buffer.isBuffer(request.evidenceRecord)
      ? decodeVerificationEvidenceRecord(request.evidenceRecord)
      : request.evidenceRecord;
    assertCorrectionEvidenceBinding(record, {
      lineageId,
      targetIdentity: binding.correctionTargetIdentity,
      ...(binding.correctionCandidateTree !== undefined ? { candidateTree: binding.correctionCandidateTree } : {}),
      ...(binding.correctionPathsDigest !== undefined ? { pathsDigest: binding.correctionPathsDigest } : {}),
      ...(binding.correctionPaths !== undefined ? { paths: binding.correctionPaths } : {}),
      outcome: "passed",
    });
  }
  const validationDocument = buildTargetedValidationDocument(binding, request.validation);
  const o = resolveOptions(request);
  const files = [{ name: "validation.json", bytes: validationDocument }];
  if (request.evidenceDocument !== undefined) files.push({ name: "evidence.txt", bytes: request.evidenceDocument });
  const argvFor = (paths: readonly string[]): string[] =>
    descriptor !== undefined
      ? renderSubmissionDescriptorArgv(descriptor, { validation: paths[0] as string, value: paths[0] as string })
      : buildNegotiatedFinalizeArgv({
          cwd: o.cwd,
          lineageId,
          validationPath: paths[0] as string,
          evidence: capturedEvidence ? { captured: true } : { documentPath: paths[1] as string },
        });
  argvFor(["/dev/null", "/dev/null"]);
  let argv: string[] = [];
  const stdout = await withPrivateTempFiles(
    "gentle-ai-finalize-",
    files,
    (paths) => {
      argv = argvFor(paths);
      return runGentleAiCall(
        {
          gentleAi: o.gentleAi,
          argv,
          cwd: o.cwd,
          environment: o.environment,
          timeoutMs: o.timeoutMs,
          requireQuietStderr: true,
          ...(o.signal ? { signal: o.signal } : {}),
        },
        CORRECTION_FINALIZE_FAILURE.FINALIZE_FAILED,
        "finalize",
        "review finalize",
      );
    },
    cleanupFailure("finalize"),
  );
  return { stdout, argv, validationDocument, capturedEvidence };
}

/** One call: STATUS, capture evidence if the provider still asks for it, STATUS, FINALIZE, STATUS. */
export async function runCorrectionFinalize(request: RunCorrectionFinalizeRequest): Promise<CorrectionFinalizeRun> {
  const statusOptions = { ...request, ...(request.lineageId !== undefined ? { lineageId: request.lineageId } : {}) };
  let snapshot = await queryCorrectionStatus(statusOptions);
  let evidence: CapturedCorrectionEvidence | undefined;
  if (readCorrectionStatus(snapshot.status).reasonCode === EVIDENCE_REQUIRED_REASON) {
    if (request.evidence === undefined) {
      throw preflight(
        CORRECTION_FINALIZE_FAILURE.EVIDENCE_MISSING,
        "the provider asks for correction verification evidence and none was supplied",
      );
    }
    evidence = await captureCorrectionEvidence({
      ...request,
      status: snapshot.status,
      evidence: request.evidence.payload,
      ...(request.evidence.outcome !== undefined ? { outcome: request.evidence.outcome } : {}),
    });
    snapshot = await queryCorrectionStatus(statusOptions);
  }
  const record = evidence?.record ?? request.evidenceRecord;
  const finalize = await finalizeCorrection({
    ...request,
    status: snapshot.status,
    validation: request.validation,
    ...(record !== undefined ? { evidenceRecord: record } : {}),
  });
  const status = await queryCorrectionStatus(statusOptions);
  return { ...(evidence !== undefined ? { evidence } : {}), finalize, status };
}
