// Broken relay: never settles, with two processes of its own alive: one in the host's group, one in a session of its
// own that keeps the case's environment (as a relay that detaches its work would). The case PATH holds only node.
import { spawn } from "node:child_process";

export * from "../../../../relay/index.ts";

/** Starts both sleepers, then never resolves. */
export function runReviewHostRelaySlot(request: { environment?: Record<string, string> }): Promise<never> {
  spawn("/bin/sleep", ["600"], { stdio: "ignore" });
  spawn("/bin/sleep", ["600"], { stdio: "ignore", detached: true, env: { ...request.environment } });
  return new Promise(() => {
    setInterval(() => {}, 1 << 30);
  });
}
