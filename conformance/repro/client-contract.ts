// The correction FINALIZE client interface a reproduction drives (`capture-evidence` and `finalize` steps).
// A module under test exports `createCorrectionClient`; `--against <module>` swaps it in for the subject.

export const DEFECT_IDS = ["D1", "D2", "D3"] as const;
export type DefectId = (typeof DEFECT_IDS)[number];

/** Where and how a client reaches the provider; `defects` is read only by deliberately defective variants. */
export interface CorrectionClientContext {
  readonly gentleAiExecutable: string;
  readonly targetCwd: string;
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly defects: readonly DefectId[];
}

/** One targeted-validation check as the caller reports it. */
export interface CompactValidationCheck {
  readonly passed: boolean;
  readonly evidence: readonly string[];
}

/** The caller's compact targeted-validation payload (`gentle_review finalize`); `request_hash` is bare 64-hex. */
export interface CompactTargetedValidation {
  readonly request_hash: string;
  readonly original_criteria: CompactValidationCheck;
  readonly correction_regression: CompactValidationCheck;
  readonly follow_ups: readonly { readonly summary: string; readonly proof_refs: readonly string[] }[];
}

/** What `captureEvidence` returns: the provider's record as the client decoded it. */
export interface CapturedEvidence {
  readonly record: Readonly<Record<string, unknown>>;
}

/** What `finalize` returns: the provider's success stdout. */
export interface FinalizeReceipt {
  readonly stdout: string;
}

/** A correction FINALIZE client; one instance is one host process (it may remember what it captured). */
export interface CorrectionClient {
  captureEvidence(request: { readonly outcome: string; readonly evidence: Buffer }): Promise<CapturedEvidence>;
  finalize(request: { readonly validation: CompactTargetedValidation }): Promise<FinalizeReceipt>;
}

export type CreateCorrectionClient = (context: CorrectionClientContext) => CorrectionClient;

/** Parses `D1,D2` / `none` into a defect list (order kept, duplicates dropped). */
export function parseDefects(text: string): DefectId[] {
  if (text === "none" || text === "") return [];
  const out: DefectId[] = [];
  for (const d of text.split(",")) {
    if (!(DEFECT_IDS as readonly string[]).includes(d))
      throw new Error(`unknown defect "${d}" (known: D1, D2, D3, or none)`);
    if (!out.includes(d as DefectId)) out.push(d as DefectId);
  }
  return out;
}
