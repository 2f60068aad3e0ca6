// Builds a repro correction client from a module with our FINALIZE API (queryCorrectionStatus,
// captureCorrectionEvidence, finalizeCorrection), so `--against <path>/finalize.ts` works without glue.
import type { CorrectionClient, CorrectionClientContext } from "../client-contract.ts";

type Fn = (request: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** True when a module exports the three functions of relay/finalize.ts. */
export function hasFinalizeApi(mod: Record<string, unknown>): boolean {
  return ["queryCorrectionStatus", "captureCorrectionEvidence", "finalizeCorrection"].every(
    (n) => typeof mod[n] === "function",
  );
}

/** A client over a relay/finalize.ts-shaped module; one instance keeps the record it captured (one host process). */
export function clientFromFinalizeModule(
  mod: Record<string, unknown>,
  context: CorrectionClientContext,
): CorrectionClient {
  const query = mod["queryCorrectionStatus"] as Fn;
  const capture = mod["captureCorrectionEvidence"] as Fn;
  const finalize = mod["finalizeCorrection"] as Fn;
  const options = {
    gentleAiExecutable: context.gentleAiExecutable,
    cwd: context.targetCwd,
    environment: { ...context.environment },
  };
  let record: unknown;
  return {
    async captureEvidence({ outcome, evidence }) {
      const { status } = await query(options);
      const captured = await capture({ ...options, status, evidence, outcome });
      record = captured["record"];
      // Report the record under its wire names, as the provider printed them (after the module's decoding).
      const wire = Object.fromEntries(
        Object.entries(record as Record<string, unknown>).map(([k, v]) => [
          k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
          v,
        ]),
      );
      return { record: wire };
    },
    async finalize({ validation }) {
      const { status } = await query(options);
      const done = await finalize({
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
      const stdout = done["stdout"];
      return { stdout: Buffer.isBuffer(stdout) ? stdout.toString("utf8") : String(stdout ?? "") };
    },
  };
}
