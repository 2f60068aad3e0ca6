import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CaseSandbox } from "../clauses/types.ts";
import { trackTempDir } from "../process/teardown.ts";

/** The run-wide scratch root: a bin folder whose PATH holds only `node`, and one folder per case. */
export interface RunRoot {
  readonly dir: string;
  /** PATH for every simulated process: node only, so no real gentle-ai or pi can ever be found. */
  readonly binDir: string;
  remove(): void;
}

/** Creates the run root under the harness's own TMPDIR; an interrupted command removes it unless `keep`. */
export function createRunRoot(keep = false): RunRoot {
  const dir = mkdtempSync(join(tmpdir(), "relay-conformance-"));
  const untrack = keep ? () => {} : trackTempDir(dir);
  const binDir = join(dir, "bin");
  mkdirSync(binDir);
  // The simulator launchers are `#!/usr/bin/env node` scripts: node must resolve, nothing else may.
  symlinkSync(process.execPath, join(binDir, "node"));
  return {
    dir,
    binDir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      untrack();
    },
  };
}

let counter = 0;

/** Creates the folders of one case under the run root. */
export function createCaseSandbox(root: RunRoot, label: string): CaseSandbox {
  counter += 1;
  const dir = join(
    root.dir,
    `case-${String(counter).padStart(4, "0")}-${label.replace(/[^A-Za-z0-9.-]+/g, "_").slice(0, 60)}`,
  );
  const sandbox: CaseSandbox = {
    dir,
    repo: join(dir, "repo"),
    tmp: join(dir, "tmp"),
    elsewhere: join(dir, "relay-cwd"),
    state: join(dir, "state"),
    home: join(dir, "home"),
    scenarioFile: join(dir, "scenario.json"),
    transcript: join(dir, "transcript.jsonl"),
    statusTranscript: join(dir, "status-transcript.jsonl"),
    leftovers: () => {
      try {
        return readdirSync(join(dir, "tmp")).sort();
      } catch (error) {
        // A relay that removed its own TMPDIR left nothing in it.
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  for (const d of [sandbox.repo, sandbox.tmp, sandbox.elsewhere, sandbox.state, sandbox.home])
    mkdirSync(d, { recursive: true });
  return sandbox;
}
