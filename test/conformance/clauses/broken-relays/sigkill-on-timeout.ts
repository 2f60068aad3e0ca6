// Control relay for sigterm-on-timeout.ts: the same kill interception, sending SIGKILL as asked, so
// TIMEOUT-HARD-KILL passes: the clause fails the defect, not the wrapper.
import { rewriteKillSignal } from "./kill-signal.ts";

rewriteKillSignal((signal) => signal);
export * from "../../../../relay/index.ts";
