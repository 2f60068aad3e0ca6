// A private world per test: its own TMPDIR (the relay's os.tmpdir()), simulator state, scenario and transcript.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { killTreeSync } from "../../conformance/process/process-tree.ts";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const SIM_GENTLE_AI = join(ROOT, "simulator/bin/gentle-ai");
export const SIM_PI = join(ROOT, "simulator/bin/pi");

/** One transcript line, as far as these tests read it. */
export interface TranscriptLine {
  readonly program: "gentle-ai" | "pi";
  readonly pid: number;
  readonly argv: string[];
  readonly cwd: string;
  readonly cwdListing?: string[];
  readonly handshake: string | null;
  readonly verb?: string;
  readonly leg?: "materialize" | "submit";
  readonly stdin: { sha256: string; length: number; base64?: string };
  readonly files: { path: string; sha256: string; length: number; base64?: string }[];
  readonly stdout: { sha256: string; length: number; base64?: string };
  readonly stderr: { sha256: string; length: number; base64?: string };
  readonly exit: { code: number | null; signal: string | null; completed: boolean };
}

export interface Sandbox {
  readonly dir: string;
  /** The relay's and the children's TMPDIR; must be empty after every test. */
  readonly tmp: string;
  readonly repo: string;
  readonly scenarioPath: string;
  readonly transcriptPath: string;
  readonly env: NodeJS.ProcessEnv;
  writeScenario(scenario: unknown): void;
  transcript(): TranscriptLine[];
  /** Names left in the private TMPDIR (the relay's staging and scratch dirs must all be gone). */
  tmpLeftovers(): string[];
  dispose(): void;
}

const savedTmp = process.env["TMPDIR"];

/** Creates a sandbox and points this process's TMPDIR (hence os.tmpdir()) at its private tmp. */
export function createSandbox(scenario: unknown): Sandbox {
  const dir = realpathSync(mkdtempSync(join(savedTmp ?? tmpdir(), "relay-test-")));
  const tmp = join(dir, "tmp");
  const repo = join(dir, "repo");
  const state = join(dir, "state");
  mkdirSync(tmp);
  mkdirSync(repo);
  const scenarioPath = join(dir, "scenario.json");
  const transcriptPath = join(dir, "transcript.jsonl");
  process.env["TMPDIR"] = tmp;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env["PATH"],
    HOME: process.env["HOME"],
    TMPDIR: tmp,
    GENTLE_AI_SIM_SCENARIO: scenarioPath,
    GENTLE_AI_SIM_STATE: state,
    GENTLE_AI_SIM_TRANSCRIPT: transcriptPath,
  };
  const sandbox: Sandbox = {
    dir,
    tmp,
    repo,
    scenarioPath,
    transcriptPath,
    env,
    writeScenario: (s) => writeFileSync(scenarioPath, JSON.stringify(s, null, 2)),
    transcript: () => {
      if (!existsSync(transcriptPath)) return [];
      // A test polling while a simulator still writes can catch its line half-written: only a line its newline
      // ended is a whole one.
      const text = readFileSync(transcriptPath, "utf8");
      return text
        .slice(0, text.lastIndexOf("\n") + 1)
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as TranscriptLine);
    },
    tmpLeftovers: () => readdirSync(tmp),
    dispose: () => {
      if (savedTmp === undefined) delete process.env["TMPDIR"];
      else process.env["TMPDIR"] = savedTmp;
      // A test that failed before its relay call ended can leave a hanging simulator (a passing one has checked
      // that nothing is left): every process started in this world goes with it, killed the way the harness kills.
      killTreeSync({ markers: [dir] });
      try {
        execFileSync("chattr", ["-R", "-i", dir], { stdio: "ignore" });
      } catch {
        // Not every test makes anything immutable.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  sandbox.writeScenario(scenario);
  return sandbox;
}

/** Bytes of a transcript blob (the tests keep the inline cap unlimited). */
export function blobBytes(blob: { base64?: string; length: number }): Buffer {
  if (blob.base64 === undefined) throw new Error(`blob of ${blob.length} bytes was not inlined`);
  return Buffer.from(blob.base64, "base64");
}
