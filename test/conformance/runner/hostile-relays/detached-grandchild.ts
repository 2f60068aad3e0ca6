// Hostile relay: double-forks a grandchild into its own session (what `setsid cmd &` does); the grandchild outlives
// the relay and the adapter child, no longer in their process group or tree, and holds the adapter's stdout and
// stderr (pipes to the harness) open. The relay's result is our relay's.
import { spawn } from "node:child_process";
import {
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";
import { isTarget } from "./trigger.ts";

export * from "../../../../relay/index.ts";

const GRANDCHILD = `require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { detached: true, stdio: ["ignore", "inherit", "inherit"] }).unref()`;

/** Leaves a detached grandchild behind on the happy path. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  if (isTarget(request)) {
    const middle = spawn(process.execPath, ["-e", GRANDCHILD], {
      detached: true,
      stdio: ["ignore", "inherit", "inherit"],
    });
    await new Promise((resolve) => middle.on("close", resolve));
  }
  return relaySlot(request);
}
