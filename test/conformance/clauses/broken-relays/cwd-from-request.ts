// Control relay for cwd-from-process.ts: the same spawn interception, leaving each gentle-ai leg in the cwd the relay
// chose (request.targetCwd), so TARGET-CWD-HONOURED passes: the clause fails the defect, not the wrapper.
import { interceptSpawn, legOf } from "./intercept.ts";

interceptSpawn((call) =>
  legOf(call) === "gentle-ai"
    ? { ...call, options: { ...call.options, cwd: call.options.cwd ?? process.cwd() } }
    : call,
);
export * from "../../../../relay/index.ts";
