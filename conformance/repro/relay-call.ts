// One `relay` step call as it crosses into the relay host: the request, the job, and the flattening of what the
// relay returned or threw. Kept free of the host machinery, so the host child loads little beyond the relay.
import type { TypedSubmission } from "../status/decode.ts";
import { errorOutcome, type Outcome } from "./outcome.ts";

/** One runReviewHostRelaySlot request as the `relay` step builds it (JSON: it crosses into the relay host). */
export interface RelayStepRequest {
  readonly captureArgumentTokens: readonly string[];
  readonly submission?: TypedSubmission;
  readonly targetCwd: string;
  readonly gentleAiExecutable: string;
  readonly piExecutable: string;
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly piTimeoutMs?: number;
  readonly gentleAiTimeoutMs?: number;
}

/** One relay call, as the worker in the relay host receives it. */
export interface RelaySlotJob {
  readonly modulePath: string;
  readonly request: RelayStepRequest;
  /** The world's TMPDIR: the relay stages its files under os.tmpdir(), as gentle-pi's does. */
  readonly tmpdir?: string;
}

/** The relay entry as the step calls it. */
export type RunSlot = (
  request: RelayStepRequest,
) => Promise<{ promptByteLength: number; resultByteLength: number; submission: string }>;

/** Runs one relay call and flattens what it returned or threw. */
export async function callRelaySlot(fn: RunSlot, request: RelayStepRequest): Promise<Outcome> {
  try {
    const result = await fn(request);
    return {
      ok: true,
      promptByteLength: result.promptByteLength,
      resultByteLength: result.resultByteLength,
      submission: result.submission,
    };
  } catch (e) {
    return errorOutcome(e);
  }
}
