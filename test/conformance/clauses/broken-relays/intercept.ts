// Defect injection for broken relays: wraps node:child_process.spawn (ESM importers see it through
// syncBuiltinESMExports), so each broken relay is our relay plus exactly one misbehaviour.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import type { SpawnOptions } from "node:child_process";

const cp = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
const realSpawn = cp.spawn;

/** One spawn call as the relay made it; a rewrite returns the call to make instead. */
export interface SpawnCall {
  readonly file: string;
  readonly args: readonly string[];
  readonly options: SpawnOptions;
}

/** Which leg a spawn belongs to: gentle-ai calls start with `review`, pi calls with `--print`. */
export function legOf(call: SpawnCall): "gentle-ai" | "pi" | "other" {
  return call.args[0] === "review" ? "gentle-ai" : call.args[0] === "--print" ? "pi" : "other";
}

/** Installs a spawn rewrite for the whole process. */
export function interceptSpawn(rewrite: (call: SpawnCall) => SpawnCall): void {
  const patched = ((file: string, args?: readonly string[], options?: SpawnOptions) => {
    const call = rewrite({ file, args: args ?? [], options: options ?? {} });
    return realSpawn(call.file, [...call.args], call.options);
  }) as typeof cp.spawn;
  cp.spawn = patched;
  syncBuiltinESMExports();
}

const STAGED = /\/gentle-pi-host-relay-result-[^/]+\/result\.raw/;

/** The staged result path inside a submit argv, if any. */
export function stagedPathOf(args: readonly string[]): string | undefined {
  for (const arg of args) {
    const m = /(\/[^\s=]*?\/gentle-pi-host-relay-result-[^/]+\/result\.raw)/.exec(arg);
    if (m && STAGED.test(arg)) return m[1];
  }
  return undefined;
}

/** Rewrites the staged file just before the submit process starts (defects in staging). */
export function corruptStagedFile(transform: (bytes: Buffer) => Buffer): void {
  interceptSpawn((call) => {
    const path = legOf(call) === "gentle-ai" ? stagedPathOf(call.args) : undefined;
    if (path) writeFileSync(path, transform(readFileSync(path)));
    return call;
  });
}
