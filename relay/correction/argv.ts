import type { VerificationOutcome } from "./evidence.ts";

/** The negotiated contract the FINALIZE and STATUS calls declare. */
export const REVIEW_INTEGRATION_CONTRACT_V2 = "gentle-ai.review-integration/v2";

/** `review status` as gentle-pi negotiates it (no `--agent`: the correction client needs no relay inputs). */
export function buildCorrectionStatusArgv(input: {
  readonly cwd: string;
  readonly lineageId?: string;
  readonly projection?: "workspace" | "staged";
}): string[] {
  return [
    "review",
    "status",
    "--contract",
    REVIEW_INTEGRATION_CONTRACT_V2,
    "--cwd",
    input.cwd,
    "--projection",
    input.projection ?? "workspace",
    ...(input.lineageId !== undefined ? ["--lineage", input.lineageId] : []),
    "--next-transition",
  ];
}

/**
 * `review capture-evidence` for providers that render no evidence descriptor (the 2.2.x-era form gentle-pi 2.1.2
 * sends).
 */
export function buildCaptureEvidenceArgv(input: {
  readonly cwd: string;
  readonly lineageId: string;
  readonly targetIdentity: string;
  readonly expectedRevision: string;
  readonly outcome: VerificationOutcome;
  readonly inputPath: string;
}): string[] {
  return [
    "review",
    "capture-evidence",
    "--cwd",
    input.cwd,
    "--lineage",
    input.lineageId,
    "--target",
    input.targetIdentity,
    "--expected-revision",
    input.expectedRevision,
    "--outcome",
    input.outcome,
    "--input",
    input.inputPath,
  ];
}

/** Where FINALIZE's final evidence comes from: the provider's captured record, or a raw evidence document. */
export type FinalizeEvidenceSource = { readonly captured: true } | { readonly documentPath: string };

/**
 * Negotiated FINALIZE for providers that render no finalize descriptor: `--captured-evidence=true` when the provider
 * holds the record (fixes #279 D2), otherwise `--evidence <file>`.
 */
export function buildNegotiatedFinalizeArgv(input: {
  readonly cwd: string;
  readonly lineageId: string;
  readonly validationPath: string;
  readonly evidence: FinalizeEvidenceSource;
}): string[] {
  return [
    "review",
    "finalize",
    "--contract",
    REVIEW_INTEGRATION_CONTRACT_V2,
    "--cwd",
    input.cwd,
    "--lineage",
    input.lineageId,
    "--validation",
    input.validationPath,
    ...("captured" in input.evidence ? ["--captured-evidence=true"] : ["--evidence", input.evidence.documentPath]),
  ];
}
