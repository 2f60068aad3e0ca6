import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withLock } from "./lock.ts";

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

const WAITER = join(import.meta.dirname, "../../test/support/lock-waiter.ts");

function waiter(dir: string, role: string, sync: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", WAITER, dir, role, sync], { stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code));
  });
}

/** A pid that no process has: a child that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "0"]);
  await new Promise((r) => child.on("exit", r));
  return child.pid!;
}

describe("withLock", () => {
  it("two waiters that both see a dead owner never hold the lock at once", { timeout: 30_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), "lock-test-"));
    made.push(root);
    const dir = join(root, "state");
    const sync = join(root, "sync");
    mkdirSync(dir);
    mkdirSync(sync);
    writeFileSync(join(dir, "lineage.lock"), String(await deadPid()));
    const second = waiter(dir, "second", sync);
    const first = waiter(dir, "first", sync);
    // Let the first hold its fresh lock while the second acts on its stale observation, then release it.
    const end = Date.now() + 10_000;
    while (!existsSync(join(sync, "held")) && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 1_500));
    writeFileSync(join(sync, "release"), "");
    expect(await first).toBe(0);
    expect(await second).toBe(0);
    expect(existsSync(join(sync, "overlap")) ? readFileSync(join(sync, "overlap"), "utf8") : "no overlap").toBe(
      "no overlap",
    );
    expect(existsSync(join(sync, "done-first")) && existsSync(join(sync, "done-second"))).toBe(true);
    expect(existsSync(join(dir, "lineage.lock"))).toBe(false);
  });

  it("takes over a lock whose owner is dead, and releases it after fn", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lock-test-"));
    made.push(dir);
    writeFileSync(join(dir, "x.lock"), String(await deadPid()));
    expect(withLock(dir, "x", () => readFileSync(join(dir, "x.lock"), "utf8"))).toBe(String(process.pid));
    expect(existsSync(join(dir, "x.lock"))).toBe(false);
  });

  it("times out on a lock a live process holds", () => {
    const dir = mkdtempSync(join(tmpdir(), "lock-test-"));
    made.push(dir);
    writeFileSync(join(dir, "x.lock"), String(process.ppid));
    expect(() => withLock(dir, "x", () => 1, 50)).toThrow(
      `simulator state lock ${join(dir, "x.lock")} is held by another process`,
    );
  });
});
