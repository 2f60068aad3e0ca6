// Control relay: our relay on a machine loaded past a short pi bound. Each pi starts 1.2 s late (a shell sleeps, then
// becomes pi), so a 1000 ms override fires before pi can fail: PI-TIMEOUT-ENV-OVERRIDE must still pass.
import { interceptSpawn, legOf } from "./intercept.ts";

interceptSpawn((call) =>
  legOf(call) === "pi"
    ? { ...call, file: "/bin/sh", args: ["-c", '/bin/sleep 1.2; exec "$0" "$@"', call.file, ...call.args] }
    : call,
);
export * from "../../../../relay/index.ts";
