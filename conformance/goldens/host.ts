import type { ChildResult } from "../host/child-result.ts";
import { runChild } from "../host/run-child.ts";
import type { GoldenOutcome, GoldenStep } from "./golden-schema.ts";
import { HANDSHAKE_ENV, HANDSHAKE_VALUE } from "../contract/provider.ts";

const PROVIDER_TIMEOUT_MS = 120_000;

/** The relay under test as the driver loads it: only the entry points the conversations use. */
export interface RelayModule {
  runReviewHostRelaySlot(request: Record<string, unknown>): Promise<unknown>;
}

/** The relay's correction FINALIZE client (relay/finalize.ts). */
export interface FinalizeModule {
  runCorrectionFinalize(request: Record<string, unknown>): Promise<unknown>;
}

/** Raw outcome before normalisation: elapsedMs is still a number. */
export type RawOutcome =
  | { kind: "process"; exitCode: number | null; signal: string | null }
  | { kind: "result"; value: unknown }
  | (Omit<Extract<GoldenOutcome, { kind: "relay-error" }>, "elapsedMs"> & { elapsedMs: number | null })
  | { kind: "thrown"; name: string; message: string; details?: Record<string, unknown> };

/** Where the conversation runs. */
export interface HostSetup {
  readonly relay: RelayModule;
  readonly finalize?: FinalizeModule;
  readonly gentleAi: string;
  readonly pi: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

function runProvider(gentleAi: string, argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ChildResult> {
  // The whole process group goes on timeout, so a hung provider leaves nothing behind.
  return runChild(gentleAi, argv, { cwd, env, timeoutMs: PROVIDER_TIMEOUT_MS });
}

function outcomeOfError(error: unknown): RawOutcome {
  if (error instanceof Error && error.name === "ReviewHostRelayError") {
    const e = error as Error & Record<string, unknown>;
    return {
      kind: "relay-error",
      name: e.name,
      errorKind: String(e.kind),
      stage: String(e.stage),
      message: e.message,
      exitCode: typeof e.exitCode === "number" ? e.exitCode : null,
      stderr: typeof e.stderr === "string" ? e.stderr : "",
      timedOut: e.timedOut === true,
      elapsedMs: typeof e.elapsedMs === "number" ? e.elapsedMs : null,
      timeoutMs: typeof e.timeoutMs === "number" ? e.timeoutMs : null,
      mutationOutcome: String(e.mutationOutcome),
    };
  }
  if (!(error instanceof Error)) return { kind: "thrown", name: "unknown", message: String(error) };
  // Typed errors of other clients (e.g. CorrectionFinalizeError) keep their own fields.
  const details = jsonSafe(Object.fromEntries(Object.entries(error))) as Record<string, unknown>;
  return { kind: "thrown", name: error.name, message: error.message, ...(Object.keys(details).length > 0 ? { details } : {}) };
}

/** Buffers become `{base64}` so a result survives JSON exactly. */
export function jsonSafe(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { base64: value.toString("base64") };
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, jsonSafe(v)]),
    );
  }
  return value;
}

/** Drives steps and records each step with its outcome; conversations call it as they decide. */
export class Host {
  readonly steps: GoldenStep[] = [];
  readonly outcomes: RawOutcome[] = [];
  constructor(private readonly setup: HostSetup) {}

  private envWith(handshake: boolean): NodeJS.ProcessEnv {
    const env = { ...this.setup.env };
    if (handshake) env[HANDSHAKE_ENV] = HANDSHAKE_VALUE;
    else delete env[HANDSHAKE_ENV];
    return env;
  }

  /** A direct provider call by the host (STATUS and the like). */
  async provider(argv: readonly string[], handshake: boolean): Promise<ChildResult> {
    this.steps.push({ kind: "provider", argv: [...argv], handshake });
    const reply = await runProvider(this.setup.gentleAi, argv, this.setup.cwd, this.envWith(handshake));
    this.outcomes.push({ kind: "process", exitCode: reply.exitCode, signal: null });
    return reply;
  }

  /** One relay slot through the relay under test. */
  async slot(step: Extract<GoldenStep, { kind: "slot" }>): Promise<RawOutcome> {
    this.steps.push(step);
    let outcome: RawOutcome;
    try {
      const value = await this.setup.relay.runReviewHostRelaySlot({
        captureArgumentTokens: step.captureArgumentTokens,
        ...(step.submission === undefined ? {} : { submission: step.submission }),
        targetCwd: this.setup.cwd,
        gentleAiExecutable: this.setup.gentleAi,
        piExecutable: this.setup.pi,
        environment: this.setup.env,
        ...(step.gentleAiTimeoutMs === undefined ? {} : { gentleAiTimeoutMs: step.gentleAiTimeoutMs }),
        ...(step.piTimeoutMs === undefined ? {} : { piTimeoutMs: step.piTimeoutMs }),
      });
      outcome = { kind: "result", value: jsonSafe(value) };
    } catch (error) {
      outcome = outcomeOfError(error);
    }
    this.outcomes.push(outcome);
    return outcome;
  }

  /** A self-contained role vector, run verbatim with the handshake (relay reference §12.2). */
  async roleVector(captureOperation: string, argumentTokens: readonly string[]): Promise<ChildResult> {
    this.steps.push({ kind: "role-vector", captureOperation, argumentTokens: [...argumentTokens] });
    const verb = captureOperation.replace(/^review\./, "");
    const reply = await runProvider(this.setup.gentleAi, ["review", verb, ...argumentTokens], this.setup.cwd, this.envWith(true));
    this.outcomes.push({ kind: "process", exitCode: reply.exitCode, signal: null });
    return reply;
  }

  /**
   * The relay's correction FINALIZE client. The request is JSON: `evidence.payloadBase64` carries the raw evidence
   * bytes; the client gets the host's cwd, executable and environment.
   */
  async finalize(request: Record<string, unknown>): Promise<RawOutcome> {
    this.steps.push({ kind: "finalize", request });
    let outcome: RawOutcome;
    const client = this.setup.finalize;
    if (client === undefined) outcome = { kind: "thrown", name: "TypeError", message: "no correction FINALIZE client module was loaded" };
    else {
      try {
        const { evidence, ...rest } = request as { evidence?: { payloadBase64: string; outcome?: string } };
        const value = await client.runCorrectionFinalize({
          ...rest,
          ...(evidence === undefined
            ? {}
            : { evidence: { payload: Buffer.from(evidence.payloadBase64, "base64"), ...(evidence.outcome ? { outcome: evidence.outcome } : {}) } }),
          cwd: this.setup.cwd,
          gentleAiExecutable: this.setup.gentleAi,
          environment: this.setup.env,
        });
        outcome = { kind: "result", value: jsonSafe(value) };
      } catch (error) {
        outcome = outcomeOfError(error);
      }
    }
    this.outcomes.push(outcome);
    return outcome;
  }

  /** Re-runs recorded steps in order (replay); every step runs even after a failure, as recorded. */
  async replaySteps(steps: readonly GoldenStep[]): Promise<void> {
    for (const step of steps) {
      if (step.kind === "provider") await this.provider(step.argv, step.handshake);
      else if (step.kind === "slot") await this.slot(step);
      else if (step.kind === "role-vector") await this.roleVector(step.captureOperation, step.argumentTokens);
      else await this.finalize(step.request);
    }
  }
}
