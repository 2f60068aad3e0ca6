// Regression fixture: our FINALIZE client with D3 re-introduced: the captured record is checked for drift
// with its identities exactly as printed (bare under `identities: "bare"`), not canonicalised.
import {
  captureCorrectionEvidence,
  finalizeCorrection,
  queryCorrectionStatus,
  type VerificationEvidenceRecord,
} from "../../../../relay/finalize.ts";
import type { CorrectionClient, CorrectionClientContext } from "../../../../conformance/repro/client-contract.ts";

/** Our client, minus the D3 fix. */
export function createCorrectionClient(context: CorrectionClientContext): CorrectionClient {
  const options = {
    gentleAiExecutable: context.gentleAiExecutable,
    cwd: context.targetCwd,
    environment: { ...context.environment } as NodeJS.ProcessEnv,
  };
  let raw: VerificationEvidenceRecord | undefined;
  return {
    async captureEvidence(request) {
      const { status } = await queryCorrectionStatus(options);
      const captured = await captureCorrectionEvidence({
        ...options,
        status,
        evidence: request.evidence,
        outcome: "passed",
      });
      const wire = JSON.parse(captured.stdout.toString("utf8")) as Record<string, string>;
      // The decoded record with the provider's identity strings put back verbatim.
      raw = {
        ...captured.record,
        authorityRevision: wire["authority_revision"] as string,
        targetIdentity: wire["target_identity"] as string,
        pathsDigest: wire["paths_digest"] as string,
        rawPayloadSha256: wire["raw_payload_sha256"] as string,
      };
      return { record: wire };
    },
    async finalize({ validation }) {
      const { status } = await queryCorrectionStatus(options);
      const done = await finalizeCorrection({
        ...options,
        status,
        validation: {
          requestHash: validation.request_hash,
          originalCriteria: validation.original_criteria,
          correctionRegression: validation.correction_regression,
        },
        ...(raw !== undefined ? { evidenceRecord: raw } : {}),
      });
      return { stdout: done.stdout.toString("utf8") };
    },
  };
}
