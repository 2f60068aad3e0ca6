// Spawns the built simulator bins in an isolated temp world (state, transcript, TMPDIR) and collects raw bytes.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { TranscriptEntrySchema, type TranscriptEntry } from "../../simulator/output/transcript-schema.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = {
  "gentle-ai": join(ROOT, "simulator/bin/gentle-ai"),
  pi: join(ROOT, "simulator/bin/pi"),
} as const;
/** argv prefix running a TypeScript fixture through tsx (loader by absolute URL, so any cwd works). */
export const TSX_FIXTURE = (name: string): string[] => [
  process.execPath,
  "--import",
  pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href,
  join(ROOT, "test/sim-runtime/fixtures", name),
];

export interface Run {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** One isolated simulator world; dispose() removes every file it created. */
export class World {
  readonly dir = mkdtempSync(join(tmpdir(), "sim-runtime-test-"));
  readonly state = join(this.dir, "state");
  readonly transcript = join(this.dir, "transcript.jsonl");

  scenario(json: unknown, name = "scenario.json"): string {
    const path = join(this.dir, name);
    writeFileSync(path, typeof json === "string" ? json : JSON.stringify(json));
    return path;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: process.env.PATH ?? "",
      TMPDIR: this.dir,
      GENTLE_AI_SIM_STATE: this.state,
      GENTLE_AI_SIM_TRANSCRIPT: this.transcript,
      ...extra,
    };
  }

  entries(): TranscriptEntry[] {
    if (!existsSync(this.transcript)) return [];
    return readFileSync(this.transcript, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => TranscriptEntrySchema.parse(JSON.parse(l)));
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface SpawnOptions {
  readonly env: Record<string, string>;
  readonly input?: Buffer;
  readonly cwd?: string;
  /** For hanging processes: SIGKILL once the transcript holds this many lines (the runtime writes it before hanging). */
  readonly killWhenTranscriptLines?: { readonly path: string; readonly lines: number };
  /** For hanging processes without a transcript: SIGKILL once stdout holds this many bytes. */
  readonly killAfterStdoutBytes?: number;
}

/** Spawns a command with shell: false in its own process group and collects stdout/stderr as Buffers. */
export function run(command: string, args: readonly string[], options: SpawnOptions): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: options.env,
      shell: false,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outLength = 0;
    const killTree = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    let poll: NodeJS.Timeout | undefined;
    if (options.killWhenTranscriptLines) {
      const { path, lines } = options.killWhenTranscriptLines;
      poll = setInterval(() => {
        if (existsSync(path) && readFileSync(path, "utf8").split("\n").filter(Boolean).length >= lines) killTree();
      }, 20);
    }
    // Safety net so a broken test never leaves a hanging simulator behind.
    const guard = setTimeout(killTree, 50_000);
    child.stdout.on("data", (chunk: Buffer) => {
      out.push(chunk);
      outLength += chunk.length;
      if (options.killAfterStdoutBytes !== undefined && outLength >= options.killAfterStdoutBytes) killTree();
    });
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? Buffer.alloc(0));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(guard);
      if (poll) clearInterval(poll);
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), code, signal });
    });
  });
}

/** Runs a simulator bin. */
export function runSim(program: keyof typeof BIN, args: readonly string[], options: SpawnOptions): Promise<Run> {
  return run(BIN[program], args, options);
}

/** A minimal materialized prompt as gentle-ai would print it: binding line, name-status block. */
export function promptFor(subjectHash: string, lens: string, paths: readonly string[]): Buffer {
  const binding = { lineage: "review-0123456789abcdef", target: `sha256:${"1".repeat(64)}`, lens, order: 0, revision: `sha256:${"2".repeat(64)}`, repository_context: `rctx1_${"3".repeat(64)}`, subject_hash: subjectHash };
  return Buffer.from(
    `GENTLE_AI_REVIEW_BINDING ${JSON.stringify(binding)}\nGENTLE_AI_REVIEW_CONTEXT {}\nGENTLE_AI_REVIEW_NAME_STATUS\n${paths.map((p) => `M\t${p}`).join("\n")}\nGENTLE_AI_REVIEW_NAME_STATUS_END\nGENTLE_AI_REVIEW_CONTEXT_END\n`,
    "utf8",
  );
}
