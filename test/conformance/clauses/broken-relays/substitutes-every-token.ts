// Broken relay: substitutes {{value}} in every submit token, not only the one at the substitution location.
import { interceptSpawn, legOf, stagedPathOf } from "./intercept.ts";

interceptSpawn((call) => {
  const path = legOf(call) === "gentle-ai" ? stagedPathOf(call.args) : undefined;
  return path ? { ...call, args: call.args.map((a) => a.split("{{value}}").join(path)) } : call;
});
export * from "../../../../relay/index.ts";
