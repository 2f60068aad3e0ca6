import type { Profile, ScenarioInput } from "../../simulator/scenario/schema.ts";
import type { AbortPlan, ErrorSnapshot, ProbeCall, ProbeResult, WireRelayRequest } from "../process/protocol.ts";
import type { TranscriptEntry } from "./transcript.ts";
import type { RelaySlot } from "../status/slots.ts";
import type { HangEvidence } from "../process/job-outcome.ts";

/** The fresh folders of one case (runner/sandbox.ts creates them). */
export interface CaseSandbox {
  readonly dir: string;
  /** targetCwd of the relay and --cwd of STATUS. */
  readonly repo: string;
  /** TMPDIR of the relay: staging and scratch folders appear here and must be gone afterwards. */
  readonly tmp: string;
  /** The relay process's cwd: a folder that is not the target, so launching in process.cwd() shows on every leg. */
  readonly elsewhere: string;
  readonly state: string;
  readonly home: string;
  readonly scenarioFile: string;
  readonly transcript: string;
  readonly statusTranscript: string;
  /** Entries left in tmp (empty when the relay cleaned up). */
  leftovers(): string[];
  remove(): void;
}

export type { Profile };

/** What a case's builders see before the relay runs. */
export interface CaseContext {
  readonly profile: Profile;
  readonly sandbox: CaseSandbox;
  readonly gentleAi: string;
  readonly pi: string;
  /** The relay process's cwd for this case. */
  readonly relayCwd: string;
  /**
   * Environment of every simulated process (PATH, TMPDIR, HOME, GENTLE_AI_SIM_*), before the relay adds the handshake.
   */
  readonly env: Readonly<Record<string, string>>;
}

/** CaseContext plus the acquired slot and the request a plain host would send. */
export interface RequestContext extends CaseContext {
  readonly slot: RelaySlot;
  readonly defaultRequest: WireRelayRequest;
}

/** Something the harness does while the relay runs, once a folder entry appears in the case TMPDIR. */
export interface DuringPlan {
  /** Name prefix of the TMPDIR entry (staging or scratch folder) to wait for. */
  readonly prefix: string;
  /** Waits (polling) until this holds for the folder before acting. */
  ready?(dir: string): boolean;
  /**
   * Runs against the folder's absolute path; its (awaited) return value lands in `observations.during`. `pids.kill`
   * SIGKILLs a simulated process by its transcript pid (a contained host's pids are its namespace's, not ours).
   */
  act(dir: string, pids: { kill(pid: number): void }): unknown;
  /** Undoes anything act() did that the harness's own rm could not remove. */
  cleanup?(dir: string): void;
}

/** One relay invocation against a scenario: the unit the harness runs (shared by every check that names it). */
export interface CaseDef {
  readonly id: string;
  /** Profiles the case can run on (default: the clause's). */
  readonly profiles?: readonly Profile[];
  /** Relay-internal behaviour that no provider profile changes: run once, on the first selected profile. */
  readonly agnostic?: boolean;
  /** Scenario settings on top of `{ profile }`. */
  scenario?(ctx: CaseContext): Omit<ScenarioInput, "profile">;
  /** Skip STATUS entirely (binding cases); the slot is then a fixed v2.4.0-shaped one. */
  readonly noStatus?: boolean;
  /** Which STATUS relay slot to take (default 0). */
  readonly slotIndex?: number;
  /** Host-side steps before the relay runs (e.g. capture the slot first). */
  before?(ctx: RequestContext): Promise<void>;
  request?(ctx: RequestContext): WireRelayRequest;
  /** The relay process's own environment (default: the simulated processes' environment). */
  processEnv?(ctx: RequestContext): Record<string, string>;
  abort?(ctx: RequestContext): AbortPlan;
  during?(ctx: RequestContext): DuringPlan;
  /**
   * Per-case bound for the relay call (default: the run's --timeout-ms), in load-scaled time (process/load-clock.ts).
   */
  readonly timeoutMs?: number;
  /**
   * Run the relay with its process cwd in the target repo. Only for cases that omit targetCwd (process.cwd() is then
   * the target by contract); every other case runs the relay from a folder of its own, so a relay that launches in
   * its process cwd instead of request.targetCwd is seen on every leg.
   */
  readonly relayInTarget?: boolean;
}

/** How the relay call ended. */
export type RelayOutcome =
  | { readonly type: "result"; readonly value: unknown }
  | { readonly type: "error"; readonly error: ErrorSnapshot }
  /** No answer within the load-scaled bound: the adapter child and its process tree were killed (output: its tail). */
  | {
      readonly type: "timeout";
      readonly timeoutMs: number;
      readonly wallMs: number;
      readonly output: string;
      readonly hang?: HangEvidence;
    }
  | { readonly type: "crashed"; readonly detail: string }
  /**
   * The harness failed, not the relay (setup, STATUS, a wedged or unstartable adapter, the run's deadline): never a
   * clause failure.
   */
  | { readonly type: "harness-error"; readonly detail: string };

/** Everything an assertion may inspect after a case ran. */
export interface CaseRun {
  readonly caseId: string;
  readonly profile: Profile;
  readonly slot: RelaySlot;
  readonly request: WireRelayRequest;
  readonly outcome: RelayOutcome;
  /** The relay's simulated processes, in launch-record order (STATUS excluded). */
  readonly transcript: readonly TranscriptEntry[];
  /** TMPDIR entries left after the relay returned. */
  readonly leftovers: readonly string[];
  /**
   * What the relay left in its own process once it settled (and ~100 ms of quiet passed): Node's resource names, e.g.
   * "Timeout" for an armed ref'd timer, and runner/protocol.ts's SIGNAL_LISTENER per listener left on request.signal.
   */
  readonly handles: readonly string[];
  /** pids from the transcript still alive after the relay returned (they are killed afterwards). */
  readonly survivors: readonly number[];
  /**
   * Processes the relay started itself (not a simulated gentle-ai or pi) still running after it returned, however
   * they detached (process/containment.ts): killed, and a failure of every clause that checks the case.
   */
  readonly escaped: readonly { readonly pid: number; readonly argv: readonly string[] }[];
  readonly tmp: string;
  readonly repo: string;
  /** The relay process's own cwd during the call (differs from repo unless the case says relayInTarget). */
  readonly relayCwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly observations: Readonly<Record<string, unknown>>;
}

/** Results of the pure-export probe for one relay. */
export interface ProbeView {
  readonly exports: Readonly<Record<string, string>>;
  readonly values: Readonly<Record<string, unknown>>;
  readonly frozen: Readonly<Record<string, boolean>>;
}

/** A check on one case run. */
export interface CaseCheck {
  readonly case: CaseDef;
  assert(run: CaseRun): void;
}

/** A check on the module's pure exports: its calls run in one probe; results arrive in order. */
export interface ProbeCheck {
  readonly probe: readonly ProbeCall[];
  verify(view: ProbeView, results: readonly ProbeResult[]): void;
}

/** A fast-check property; `run` executes it (each run one or more relay calls) and throws on a counterexample. */
export interface PropertyCheck {
  readonly property: PropertyDef;
}

/** Runs cases for properties through the harness's own machinery. */
export interface PropertyRunner {
  readonly profile: Profile;
  readonly runs: number;
  readonly seed: number;
  runCase(def: CaseDef): Promise<CaseRun>;
  /** Saves a counterexample file (clause, profile and relay are filled in) and returns its path. */
  saveCounterexample(data: { property: string; seed: number; path: string; message: string; value: unknown }): string;
}

export interface PropertyDef {
  readonly id: string;
  /** Runs `runner.runs` generated inputs; throws ClauseFailure naming seed, path and the saved counterexample. */
  run(runner: PropertyRunner): Promise<void>;
  /** Re-checks one saved input (the counterexample's `value`). */
  replay(value: unknown, runner: PropertyRunner): Promise<void>;
}

export type ClauseCheck = CaseCheck | ProbeCheck | PropertyCheck;

/** One testable MUST of the relay contract. */
export interface Clause {
  /** Stable ID, UPPER-KEBAB. */
  readonly id: string;
  /** One line. */
  readonly statement: string;
  /** Where the MUST comes from (gentle-pi version, commit or issue, and the reference section). */
  readonly source: string;
  readonly profiles: readonly Profile[];
  readonly checks: readonly ClauseCheck[];
}

/** A check outcome that is not a failure: the relay lacks an optional export the check needs. */
export class SkipCheck extends Error {
  override readonly name = "SkipCheck";
}

/** A failed expectation with a one-line reason. */
export class ClauseFailure extends Error {
  override readonly name = "ClauseFailure";
}

/** A failure because the relay call hit its bound: a property does not shrink it through further hangs. */
export class HungFailure extends ClauseFailure {}

/**
 * The harness itself failed while checking (a case it could not run, a run deadline): reported as `error`, never
 * `fail`.
 */
export class HarnessError extends Error {
  override readonly name = "HarnessError";
}
