// Reads the provider's relay slots from the simulator's STATUS, the way a host controller would (`--agent pi`,
// handshake set).
import { spawnSync } from "node:child_process";
import {
  GENTLE_PI_REVIEW_RELAY_CONTRACT,
  GENTLE_PI_REVIEW_RELAY_CONTRACT_ENV,
  reviewHostRelaySlots,
  type ReviewHostRelaySlot,
} from "../../relay/index.ts";
import { decodeReviewCollectInput } from "../../relay/status-decode.ts";
import { SIM_GENTLE_AI } from "./relay-sandbox.ts";

/** Runs gentle-ai STATUS and returns the parsed object; throws with stderr on failure. */
export function simStatus(env: NodeJS.ProcessEnv, cwd: string, extra: readonly string[] = []): Record<string, unknown> {
  const run = spawnSync(
    SIM_GENTLE_AI,
    [
      "review",
      "status",
      "--contract",
      "gentle-ai.review-integration/v2",
      "--cwd",
      cwd,
      "--projection",
      "workspace",
      ...extra,
      "--next-transition",
    ],
    { cwd, env: { ...env, [GENTLE_PI_REVIEW_RELAY_CONTRACT_ENV]: GENTLE_PI_REVIEW_RELAY_CONTRACT }, shell: false },
  );
  if (run.status !== 0)
    throw new Error(`status exited ${run.status}: ${run.stderr.toString("utf8")}${run.stdout.toString("utf8")}`);
  return JSON.parse(run.stdout.toString("utf8")) as Record<string, unknown>;
}

/** The relay slots STATUS offers with `--agent pi`. */
export function simRelaySlots(env: NodeJS.ProcessEnv, cwd: string): readonly ReviewHostRelaySlot[] {
  const status = simStatus(env, cwd, ["--agent", "pi"]);
  const next = status["next_transition"] as { collect?: { inputs?: unknown[] } } | undefined;
  return reviewHostRelaySlots((next?.collect?.inputs ?? []).map((i) => decodeReviewCollectInput(i)));
}
