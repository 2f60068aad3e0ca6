// Broken relay: launches gentle-ai without the GENTLE_PI_REVIEW_RELAY_CONTRACT handshake.
import { interceptSpawn, legOf } from "./intercept.ts";

interceptSpawn((call) => {
  if (legOf(call) !== "gentle-ai") return call;
  const env = { ...(call.options.env ?? process.env) };
  delete env.GENTLE_PI_REVIEW_RELAY_CONTRACT;
  return { ...call, options: { ...call.options, env } };
});
export * from "../../../../relay/index.ts";
