import {
  DEFAULT_GENTLE_AI_TIMEOUT_MS,
  derivedPiTimeoutMs,
  PI_TIMEOUT_ENV,
  piTimeoutOverride,
} from "../../clauses/common.ts";
import { describeOutcome } from "../../process/job-outcome.ts";
import { runTaskOutcome } from "../../process/run-task.ts";
import { RELAY_ENTRY_EXPORT } from "../../process/protocol.ts";
import { loadModule, ReproInputError } from "../modules.ts";
import type { Outcome } from "../outcome.ts";
import { HANDSHAKE_TAMPER, REPO_ROOT, SIM_GENTLE_AI, reproWorker } from "../paths.ts";
import type { RelaySlotJob, RelayStepRequest, RunSlot } from "../relay-call.ts";
import * as z from "zod/mini";
import type { StepContext, StepResult } from "./context.ts";
import { count, integer, nonEmpty, oneOf, section, type StepDef } from "./step-def.ts";
import { readStatus, type StatusRead } from "./status.ts";
import { renderToken, type RelaySlot } from "../../status/slots.ts";

/** The pi bound's ceiling: the derivation's cap, reached here by the largest prompt (the prompt is not known yet). */
const PI_TIMEOUT_CEILING_MS = derivedPiTimeoutMs(Number.MAX_SAFE_INTEGER);
/** Covers the host child's start-up, the module's load and the relay's own work between its bounded legs. */
export const RELAY_HOST_MARGIN_MS = 10_000;

/**
 * The host's bound on one relay call, from the bounds the relay itself must keep (relay reference §5): both
 * gentle-ai legs (materialize, submit) at the request's bound or the default, pi at the request's bound, else the
 * phase environment's override, else the ceiling; plus RELAY_HOST_MARGIN_MS.
 */
export function relayCallBoundMs(request: RelayStepRequest): number {
  const gentleAi = request.gentleAiTimeoutMs ?? DEFAULT_GENTLE_AI_TIMEOUT_MS;
  const pi = request.piTimeoutMs ?? piTimeoutOverride(request.environment[PI_TIMEOUT_ENV]) ?? PI_TIMEOUT_CEILING_MS;
  return 2 * gentleAi + pi + RELAY_HOST_MARGIN_MS;
}

/** Loads a relay module's export `name` or reports bad input. */
export async function relayFunction<T>(
  ctx: StepContext,
  client: string | undefined,
  name: string,
): Promise<{ fn: T; label: string; path: string }> {
  const choice = ctx.module(client);
  if (!choice.relay) throw new ReproInputError(`${choice.label} is not a relay module (no relay entry)`);
  const mod = await loadModule(choice.relay);
  const fn = mod[name];
  if (typeof fn !== "function") throw new ReproInputError(`${choice.relay} exports no ${name}()`);
  return { fn: fn as T, label: choice.label, path: choice.relay };
}

// The call runs in a fresh relay host (conformance/process/run-task.ts), never in this process: past its bound, or
// when the relay kills or breaks its host, the host's whole tree goes (with every process carrying the sandbox
// folder) and the step gets a typed failing outcome. Only a fault of the harness's own is thrown.
async function runInRelayHost(job: RelaySlotJob, markers: readonly string[]): Promise<Outcome> {
  const boundMs = relayCallBoundMs(job.request);
  const task = { module: reproWorker(), export: "runRelaySlotJob", input: job };
  const { outcome } = await runTaskOutcome(task, { cwd: REPO_ROOT, env: process.env, timeoutMs: boundMs, markers });
  switch (outcome.status) {
    case "reply":
      if (outcome.reply.type === "result") return outcome.reply.value as Outcome;
      break;
    case "timeout":
      return {
        ok: false,
        name: "RelayHostTimeout",
        kind: "host-timeout",
        message: `${RELAY_ENTRY_EXPORT} did not settle within ${boundMs}ms (the relay's own bounds plus ${RELAY_HOST_MARGIN_MS}ms); its host was killed with its process tree`,
        hostTimeoutMs: boundMs,
      };
    case "exited":
      return { ok: false, name: "RelayHostExited", kind: "host-exited", message: describeOutcome(outcome) };
    case "protocol":
      return { ok: false, name: "RelayHostBroken", kind: "host-protocol", message: describeOutcome(outcome) };
    case "harness":
      break;
  }
  throw new Error(`repro relay host failed: ${describeOutcome(outcome)}`);
}

/**
 * `relay [slot=N] [client=…] [pi-timeout-ms=N] [gentle-ai-timeout-ms=N] [status-scenario=S] [handshake=unset|VALUE]`:
 * reads the relay slots from a negotiated STATUS (`--agent pi`), then runs the module's runReviewHostRelaySlot
 * on slot N against the simulator, in a fresh relay host bounded by relayCallBoundMs. `handshake=` routes the
 * relay's gentle-ai calls through a launcher that removes or replaces the handshake the relay injected (a tampered
 * environment between host and provider).
 */
export async function runRelayStep(ctx: StepContext, options: Record<string, string>): Promise<StepResult> {
  // Bad input (not a relay module, no entry) is reported from here, before any call.
  const { path } = await relayFunction<RunSlot>(ctx, options["client"], RELAY_ENTRY_EXPORT);
  const statusScenario = options["status-scenario"];
  const scenarioPath = statusScenario
    ? ctx.sandbox.writeScenario(statusScenario, JSON.parse(ctx.section(statusScenario)) as Record<string, unknown>)
    : undefined;
  // status=last: the slots of the phase's last STATUS, as a host that read STATUS once relays them all in order.
  const status =
    options["status"] === "last" && ctx.sandbox.lastStatus !== undefined
      ? ctx.sandbox.lastStatus
      : await readStatus(ctx, true, scenarioPath);
  const index = Number(options["slot"] ?? "0");
  const slot = options["complete"] === "bare" ? completedBareSlot(status) : status.slots[index];
  if (!slot) {
    return {
      outcome: {
        ok: false,
        name: "NoRelaySlot",
        message: `STATUS offers no relay slot ${index} (reason_code ${String(status.outcome["reason_code"] ?? "?")}, ${status.slots.length} slots)`,
      },
    };
  }
  ctx.say(`slot ${index}: lens ${slot.lens ?? "?"} order ${slot.order ?? "?"}`);
  const environment: Record<string, string | undefined> = { ...ctx.sandbox.env };
  const tamper = options["handshake"];
  if (tamper !== undefined) {
    environment["GENTLE_RELAY_REPRO_HANDSHAKE"] = tamper;
    // The launcher runs the world's gentle-ai (a recording shim, a real build) in place of the simulator.
    if (ctx.sandbox.gentleAi !== SIM_GENTLE_AI) environment["GENTLE_RELAY_REPRO_TARGET"] = ctx.sandbox.gentleAi;
  }
  const request: RelayStepRequest = {
    captureArgumentTokens: slot.captureArgumentTokens,
    ...(slot.submission ? { submission: slot.submission } : {}),
    targetCwd: ctx.sandbox.work,
    gentleAiExecutable: tamper !== undefined ? HANDSHAKE_TAMPER : ctx.sandbox.gentleAi,
    piExecutable: ctx.sandbox.pi,
    environment,
    ...(options["pi-timeout-ms"] !== undefined ? { piTimeoutMs: Number(options["pi-timeout-ms"]) } : {}),
    ...(options["gentle-ai-timeout-ms"] !== undefined
      ? { gentleAiTimeoutMs: Number(options["gentle-ai-timeout-ms"]) }
      : {}),
  };
  const outcome = await runInRelayHost({ modulePath: path, request, tmpdir: ctx.sandbox.tmp }, [ctx.sandbox.root]);
  outcome["slot.lens"] = slot.lens ?? null;
  outcome["slot.order"] = slot.order ?? null;
  outcome["slot.tokens"] = slot.captureArgumentTokens.join(" ");
  return {
    outcome,
    vars: {
      SLOT_TOKENS: slot.captureArgumentTokens.join(" "),
      SLOT_LENS: slot.lens ?? "",
      SLOT_ORDER: slot.order ?? "",
    },
  };
}

/**
 * An old binary has no relay surface: its STATUS offers bare inputs, so the host completes the first capture-result
 * input the way a v2.4.0 provider would have (`--agent=pi --materialize=true`, then `--input={{value}}`).
 */
function completedBareSlot(status: StatusRead): RelaySlot | undefined {
  const input = status.inputs.find((i) => i.capture_operation === "review.capture-result");
  if (input === undefined) return undefined;
  const binding = input.arguments.map(renderToken);
  return {
    captureArgumentTokens: [...binding, "--agent=pi", "--materialize=true"],
    submission: {
      operationToken: "capture-result",
      argumentTokens: [...binding, "--input={{value}}"],
      values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", substitutionLocation: binding.length }],
    },
  };
}

/** `bound bytes=N [client=…]`: the module's derived pi bound for a prompt size under the phase environment. */
export async function runBoundStep(ctx: StepContext, options: Record<string, string>): Promise<StepResult> {
  const { fn } = await relayFunction<(bytes: number, env: Record<string, string | undefined>) => number>(
    ctx,
    options["client"],
    "resolveReviewHostRelayPiTimeoutMs",
  );
  const bytes = Number(options["bytes"]);
  return { outcome: { ok: true, bytes, timeoutMs: fn(bytes, { ...ctx.sandbox.env }) } };
}

/** The `relay` step. */
export const relayStep: StepDef<"relay"> = {
  name: "relay",
  options: z.strictObject({
    slot: z.optional(count()),
    client: z.optional(nonEmpty()),
    "pi-timeout-ms": z.optional(integer()),
    "gentle-ai-timeout-ms": z.optional(integer()),
    "status-scenario": z.optional(section()),
    handshake: z.optional(nonEmpty()),
    status: z.optional(oneOf(["fresh", "last"], `must be "fresh" or "last"`)),
    complete: z.optional(oneOf(["bare"], `must be "bare"`)),
  }),
  sectionOptions: ["status-scenario"],
  answerVerb: "capture-result",
  run: runRelayStep,
};

/** The `bound` step. */
export const boundStep: StepDef<"bound"> = {
  name: "bound",
  options: z.strictObject({ bytes: count("bound needs bytes=N"), client: z.optional(nonEmpty()) }),
  run: runBoundStep,
};
