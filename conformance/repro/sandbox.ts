import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CorrectionClient } from "./client-contract.ts";
import { SIM_BIN, SIM_GENTLE_AI, SIM_PI } from "./paths.ts";
import { readCalls, transcriptMark, type SimCall } from "./transcript.ts";
import { trackTempDir } from "../runner/teardown.ts";

/** One phase's private world: work tree, simulator state, transcript, environment and variables. */
export class Sandbox {
  readonly root: string;
  readonly work: string;
  readonly state: string;
  readonly transcript: string;
  readonly scenarioPath: string;
  readonly env: Record<string, string | undefined>;
  readonly vars: Record<string, string>;
  /** Client instances of this phase: one instance stands for one long-lived host process. */
  readonly clients = new Map<string, CorrectionClient>();
  readonly #untrack: () => void;

  constructor(scenario: Record<string, unknown>) {
    this.root = mkdtempSync(join(tmpdir(), "gentle-relay-repro-"));
    this.#untrack = trackTempDir(this.root);
    this.work = join(this.root, "work");
    this.state = join(this.root, "state");
    this.transcript = join(this.root, "transcript.jsonl");
    this.scenarioPath = join(this.root, "scenario.json");
    mkdirSync(this.work);
    writeFileSync(this.scenarioPath, `${JSON.stringify(scenario, null, 2)}\n`);
    // A minimal environment: nothing from the caller's shell (a stray handshake variable above all) leaks in.
    this.env = {
      PATH: `${SIM_BIN}:${process.env["PATH"] ?? "/usr/bin:/bin"}`,
      HOME: process.env["HOME"],
      TMPDIR: process.env["TMPDIR"],
      GENTLE_AI_SIM_SCENARIO: this.scenarioPath,
      GENTLE_AI_SIM_STATE: this.state,
      GENTLE_AI_SIM_TRANSCRIPT: this.transcript,
    };
    this.vars = {
      WORK: this.work,
      STATE: this.state,
      SCENARIO: this.scenarioPath,
      TRANSCRIPT: this.transcript,
      SIM_BIN,
      GENTLE_AI: SIM_GENTLE_AI,
      PI: SIM_PI,
    };
  }

  /** Writes an extra scenario file (for `status-scenario=`) and returns its path. */
  writeScenario(name: string, scenario: Record<string, unknown>): string {
    const path = join(this.root, `scenario-${name.replace(/[^A-Za-z0-9.-]/g, "_")}`);
    writeFileSync(path, `${JSON.stringify(scenario, null, 2)}\n`);
    return path;
  }

  mark(): number {
    return transcriptMark(this.transcript);
  }

  callsSince(mark: number): SimCall[] {
    return readCalls(this.transcript, mark);
  }

  /** Replaces sandbox paths in printed text with their variable names, so output reads the same on every run. */
  redact(text: string): string {
    return text
      .replaceAll(this.work, "$WORK")
      .replaceAll(this.state, "$STATE")
      .replaceAll(this.scenarioPath, "$SCENARIO")
      .replaceAll(this.root, "$SANDBOX")
      .replaceAll(SIM_BIN, "$SIM_BIN")
      .replaceAll(tmpdir(), "$TMPDIR");
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
    this.#untrack();
  }
}
