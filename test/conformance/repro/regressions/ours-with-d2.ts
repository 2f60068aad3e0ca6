// Regression fixture: our FINALIZE client with D2 re-introduced (sends --evidence <file>, never
// --captured-evidence=true). The 279 reproduction must report the mismatch.
import { captureCorrectionEvidence, finalizeCorrection, queryCorrectionStatus } from "../../../../relay/finalize.ts";
import type { CorrectionClient, CorrectionClientContext } from "../../../../conformance/repro/client-contract.ts";

/** Our client, minus the D2 fix. */
export function createCorrectionClient(context: CorrectionClientContext): CorrectionClient {
  const options = {
    gentleAiExecutable: context.gentleAiExecutable,
    cwd: context.targetCwd,
    environment: { ...context.environment } as NodeJS.ProcessEnv,
  };
  let evidence: Buffer | undefined;
  return {
    async captureEvidence(request) {
      const { status } = await queryCorrectionStatus(options);
      const captured = await captureCorrectionEvidence({
        ...options,
        status,
        evidence: request.evidence,
        outcome: "passed",
      });
      evidence = request.evidence;
      return { record: { ...captured.record } };
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
        capturedEvidence: false,
        evidenceDocument: evidence ?? Buffer.from("no evidence in this process\n"),
      });
      return { stdout: done.stdout.toString("utf8") };
    },
  };
}
