import type { DefectId } from "../client-contract.ts";
import type { Outcome } from "../outcome.ts";
import type { Sandbox } from "../sandbox.ts";

/** The bound of one provider call a step makes itself (STATUS, `exec`): its process group is killed past it. */
export const REPRO_CALL_TIMEOUT_MS = 60_000;

/** The module a step drives: its relay and/or client entry, and a printable name. */
export interface ModuleChoice {
  readonly label: string;
  readonly relay?: string;
  readonly client?: string;
}

/** What the runner lends a step. */
export interface StepContext {
  readonly sandbox: Sandbox;
  /** Resolves `client=` (default `subject`) to module paths. */
  module(name: string | undefined): ModuleChoice;
  /** Defects for a client step: the step's `defects=`, else `--defects` for the subject, else the module default. */
  readonly subjectDefects: readonly DefectId[] | undefined;
  /** Raw bytes of a txtar section. */
  section(name: string): string;
  /** Expands `$VAR` in a stored word. */
  expand(word: string): string;
  /** Prints one line of the step's report. */
  say(line: string): void;
}

/** The provider's answer the `exit`/`stdout`/`stderr`/`cmp` lines check. */
export interface Answer {
  readonly argv: readonly string[];
  readonly exitCode: number | null;
  readonly stdout: Buffer | undefined;
  readonly stderr: Buffer | undefined;
}

/** A step's result. */
export interface StepResult {
  readonly outcome: Outcome;
  /** Explicit answer (exec); otherwise the step's last gentle-ai call is used. */
  readonly answer?: Answer;
  /** Variables the step sets for later lines. */
  readonly vars?: Readonly<Record<string, string>>;
}
