// Broken relay: also exports the handshake to pi.
import { interceptSpawn, legOf } from "./intercept.ts";

interceptSpawn((call) =>
  legOf(call) === "pi"
    ? {
        ...call,
        options: {
          ...call.options,
          env: { ...(call.options.env ?? process.env), GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1" },
        },
      }
    : call,
);
export * from "../../../../relay/index.ts";
