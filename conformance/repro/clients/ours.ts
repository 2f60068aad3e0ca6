// Adapts our FINALIZE client (relay/finalize.ts) to the repro client interface. One instance is one host
// process: it keeps the record it captured for the drift check; a fresh instance starts with nothing.
import {
  captureCorrectionEvidence,
  finalizeCorrection,
  queryCorrectionStatus,
  type CorrectionClientOptions,
} from "../../../relay/finalize.ts";
import type { CorrectionClient, CorrectionClientContext } from "../client-contract.ts";

/** Our client takes no defects; `context.defects` is ignored. */
export function createCorrectionClient(context: CorrectionClientContext): CorrectionClient {
  const options: CorrectionClientOptions = {
    gentleAiExecutable: context.gentleAiExecutable,
    cwd: context.targetCwd,
    environment: { ...context.environment } as NodeJS.ProcessEnv,
  };
  let record: Awaited<ReturnType<typeof captureCorrectionEvidence>>["record"] | undefined;
  return {
    async captureEvidence({ outcome, evidence }) {
      const { status } = await queryCorrectionStatus(options);
      const captured = await captureCorrectionEvidence({ ...options, status, evidence, outcome: outcome as "passed" });
      record = captured.record;
      // Report the record under its wire names, as the provider printed them (normalised by our decoder).
      const wire = Object.fromEntries(Object.entries(captured.record).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
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
          followUps: validation.follow_ups.map((f) => ({ observation: f.summary, proofRefs: f.proof_refs })),
        },
        ...(record !== undefined ? { evidenceRecord: record } : {}),
      });
      return { stdout: done.stdout.toString("utf8") };
    },
  };
}
