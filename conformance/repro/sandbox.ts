import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CorrectionClient } from "./client-contract.ts";
import { SIM_BIN, SIM_GENTLE_AI, SIM_PI } from "./paths.ts";
import { readCalls, transcriptMark, type SimCall } from "./transcript.ts";
import { trackTempDir } from "../process/teardown.ts";
import { createShims } from "./shim.ts";
import { buildRepository, GIT_IDENTITY_ENV } from "./world-repo.ts";
import type { RepoFixture } from "./format.ts";
import type { Outcome } from "./outcome.ts";
import type { StatusRead } from "./status-read.ts";

/** Who writes the phase's transcript: the simulator itself, or recording shims in front of any gentle-ai and pi. */
export type Recording = "native" | "shim";

/** What a phase's world is made of. */
export interface WorldOptions {
  /** The scenario the simulator (and the fake pi) read. */
  readonly scenario: Record<string, unknown>;
  /** The gentle-ai the steps call (default the simulator). */
  readonly gentleAi?: string;
  readonly recording?: Recording;
  /** The repository fixture and the txtar sections it names. */
  readonly repo?: { readonly fixture: RepoFixture; readonly section: (name: string) => string };
  /** A fixed root (the differential run gives both sides the same paths); default a fresh temp dir. */
  readonly root?: string;
}

/**
 * One phase's private world: work tree (a Git repository when the script declares one), a fresh HOME and TMPDIR,
 * provider state, one transcript of every call, the environment allow-list and the script's variables.
 */
export class Sandbox {
  readonly root: string;
  readonly work: string;
  readonly state: string;
  readonly home: string;
  readonly tmp: string;
  readonly transcript: string;
  readonly scenarioPath: string;
  /** What the steps run as gentle-ai and pi (a recording shim when recording through shims). */
  readonly gentleAi: string;
  readonly pi: string;
  /** The gentle-ai behind any shim: the simulator or the binary under test. */
  readonly target: string;
  readonly env: Record<string, string | undefined>;
  readonly vars: Record<string, string>;
  /** The phase's last STATUS read (`relay status=last` and `role-vector` take their slots from it). */
  lastStatus: StatusRead | undefined;
  /** Every step's outcome in order (a recorded golden keeps them). */
  readonly outcomes: Outcome[] = [];
  /** Client instances of this phase: one instance stands for one long-lived host process. */
  readonly clients = new Map<string, CorrectionClient>();
  readonly #untrack: () => void;

  private constructor(
    root: string,
    options: WorldOptions,
    shims: { gentleAi: string; pi: string; transcript: string } | undefined,
  ) {
    this.root = root;
    this.#untrack = trackTempDir(root);
    this.work = join(root, "work");
    this.state = join(root, "state");
    this.home = join(root, "home");
    this.tmp = join(root, "tmp");
    this.scenarioPath = join(root, "scenario.json");
    this.target = options.gentleAi ?? SIM_GENTLE_AI;
    this.gentleAi = shims?.gentleAi ?? this.target;
    this.pi = shims?.pi ?? SIM_PI;
    this.transcript = shims?.transcript ?? join(root, "transcript.jsonl");
    const bin = join(root, "bin");
    for (const d of [this.home, this.tmp, bin]) mkdirSync(d, { recursive: true });
    writeFileSync(this.scenarioPath, `${JSON.stringify(options.scenario, null, 2)}\n`);
    // gentle-ai spawns the `pi` on PATH for role vectors: the same pi the relay gets. No claude or codex is on it.
    symlinkSync(this.pi, join(bin, "pi"));
    symlinkSync(process.execPath, join(bin, "node"));
    // The allow-list: nothing from the caller's shell (a stray handshake variable above all) leaks in.
    this.env = {
      PATH: `${bin}:/usr/bin:/bin`,
      HOME: this.home,
      TMPDIR: this.tmp,
      CI: "1",
      GENTLE_AI_NO_SELF_UPDATE: "1",
      ...GIT_IDENTITY_ENV,
      GENTLE_AI_SIM_SCENARIO: this.scenarioPath,
      GENTLE_AI_SIM_STATE: this.state,
      // Shims record every call themselves; the simulator's own lines would count each call twice.
      ...(shims === undefined ? { GENTLE_AI_SIM_TRANSCRIPT: this.transcript } : {}),
    };
    this.vars = {
      WORK: this.work,
      STATE: this.state,
      SCENARIO: this.scenarioPath,
      TRANSCRIPT: this.transcript,
      SIM_BIN,
      GENTLE_AI: this.gentleAi,
      PI: this.pi,
    };
  }

  /** Builds a phase's world: folders, shims when recording through them, and the repository fixture. */
  static async create(options: WorldOptions): Promise<Sandbox> {
    const root = options.root ?? mkdtempSync(join(tmpdir(), "gentle-relay-repro-"));
    mkdirSync(root, { recursive: true });
    let shims;
    try {
      shims =
        options.recording === "shim"
          ? await createShims({ gentleAi: options.gentleAi ?? SIM_GENTLE_AI, pi: SIM_PI }, root, "shims")
          : undefined;
    } catch (error) {
      rmSync(root, { recursive: true, force: true });
      throw error;
    }
    const sandbox = new Sandbox(root, options, shims);
    try {
      mkdirSync(sandbox.work);
      if (options.repo) await buildRepository(sandbox.work, options.repo.fixture, options.repo.section, sandbox.env);
    } catch (error) {
      sandbox.dispose();
      throw error;
    }
    return sandbox;
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
