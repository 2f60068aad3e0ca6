// Broken relay: on a timeout (and an abort) it sends SIGTERM where the contract says SIGKILL; a child that traps
// SIGTERM is never ended and the relay never settles.
import { isSigkill, rewriteKillSignal } from "./kill-signal.ts";

rewriteKillSignal((signal) => (isSigkill(signal) ? "SIGTERM" : signal));
export * from "../../../../relay/index.ts";
