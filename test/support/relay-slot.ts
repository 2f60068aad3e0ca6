// The relay request the simulator tests build for one slot of a sandbox.
import type { ReviewHostRelayRequest, ReviewHostRelaySlot } from "../../relay/index.ts";
import { SIM_GENTLE_AI, SIM_PI, type Sandbox, type TranscriptLine } from "./relay-sandbox.ts";
import { simRelaySlots } from "./relay-status.ts";

/** The first relay slot the sandbox's STATUS offers. */
export function firstRelaySlot(sandbox: Sandbox): ReviewHostRelaySlot {
  const slot = simRelaySlots(sandbox.env, sandbox.repo)[0];
  if (slot === undefined) throw new Error("STATUS offered no relay slot");
  return slot;
}

/** A request relaying `slot` in the sandbox through the simulated gentle-ai and pi, plus `extra`. */
export function relayRequest(
  sandbox: Sandbox,
  slot: ReviewHostRelaySlot,
  extra: Partial<ReviewHostRelayRequest> = {},
): ReviewHostRelayRequest {
  return {
    captureArgumentTokens: slot.captureArgumentTokens,
    ...(slot.submission !== undefined ? { submission: slot.submission } : {}),
    targetCwd: sandbox.repo,
    gentleAiExecutable: SIM_GENTLE_AI,
    piExecutable: SIM_PI,
    environment: sandbox.env,
    ...extra,
  };
}

/** The relay's own calls (STATUS calls made by the test are left out). */
export function relayCalls(sandbox: Sandbox): TranscriptLine[] {
  return sandbox.transcript().filter((l) => l.verb !== "status");
}
