// A child process for the lock tests: takes the simulator's state lock once, with the takeover hook scripted by argv.
//   lock-waiter.ts <dir> <role> <sync dir>
// role "first": takes over the stale lock at once, then says "held" and keeps the lock until "release" appears.
// role "second": after it has seen the dead owner, waits (at most 1 s) for "held" before it acts on what it saw.
// Either role records "overlap" if it ever holds the lock while the other does.
import { existsSync, openSync, closeSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lockTestHooks, withLock } from "../../simulator/state/lock.ts";

const [dir, role, sync] = process.argv.slice(2) as [string, "first" | "second", string];
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const waitFor = (file: string, ms: number): void => {
  const end = Date.now() + ms;
  while (!existsSync(file) && Date.now() < end) Atomics.wait(sleeper, 0, 0, 5);
};

if (role === "second") lockTestHooks.afterDeadOwnerSeen = () => waitFor(join(sync, "held"), 1_000);
if (role === "first") waitFor(join(sync, "second-started"), 5_000);
else writeFileSync(join(sync, "second-started"), "");

withLock(dir, "lineage", () => {
  const marker = join(sync, "holder");
  try {
    closeSync(openSync(marker, "wx"));
  } catch {
    writeFileSync(join(sync, "overlap"), role);
    return;
  }
  if (role === "first") {
    writeFileSync(join(sync, "held"), "");
    waitFor(join(sync, "release"), 3_000);
  }
  unlinkSync(marker);
});
writeFileSync(join(sync, `done-${role}`), "");
