// Broken relay: launches both gentle-ai legs in its own process cwd instead of request.targetCwd.
import { interceptSpawn, legOf } from "./intercept.ts";

interceptSpawn((call) =>
  legOf(call) === "gentle-ai" ? { ...call, options: { ...call.options, cwd: process.cwd() } } : call,
);
export * from "../../../../relay/index.ts";
