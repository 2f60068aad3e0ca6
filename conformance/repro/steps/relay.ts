import { loadModule, ReproInputError } from "../modules.ts";
import { errorOutcome, type Outcome } from "../outcome.ts";
import { HANDSHAKE_TAMPER, SIM_GENTLE_AI, SIM_PI } from "../paths.ts";
import * as z from "zod/mini";
import type { StepContext, StepResult } from "./context.ts";
import { count, integer, nonEmpty, section, type StepDef } from "./step-def.ts";
import { readStatus } from "./status.ts";

type RunSlot = (request: Record<string, unknown>) => Promise<{ promptByteLength: number; resultByteLength: number; submission: string }>;

/** Loads a relay module's runReviewHostRelaySlot or reports bad input. */
export async function relayFunction<T>(ctx: StepContext, client: string | undefined, name: string): Promise<{ fn: T; label: string }> {
  const choice = ctx.module(client);
  if (!choice.relay) throw new ReproInputError(`${choice.label} is not a relay module (no relay entry)`);
  const mod = await loadModule(choice.relay);
  const fn = mod[name];
  if (typeof fn !== "function") throw new ReproInputError(`${choice.relay} exports no ${name}()`);
  return { fn: fn as T, label: choice.label };
}

/**
 * `relay [slot=N] [client=…] [pi-timeout-ms=N] [gentle-ai-timeout-ms=N] [status-scenario=S] [handshake=unset|VALUE]`:
 * reads the relay slots from a negotiated STATUS (`--agent pi`), then runs the module's runReviewHostRelaySlot
 * on slot N against the simulator. `handshake=` routes the relay's gentle-ai calls through a launcher that
 * removes or replaces the handshake the relay injected (a tampered environment between host and provider).
 */
export async function runRelayStep(ctx: StepContext, options: Record<string, string>): Promise<StepResult> {
  const { fn } = await relayFunction<RunSlot>(ctx, options["client"], "runReviewHostRelaySlot");
  const statusScenario = options["status-scenario"];
  const scenarioPath = statusScenario ? ctx.sandbox.writeScenario(statusScenario, JSON.parse(ctx.section(statusScenario)) as Record<string, unknown>) : undefined;
  const status = await readStatus(ctx, true, scenarioPath);
  const index = Number(options["slot"] ?? "0");
  const slot = status.slots[index];
  if (!slot) {
    return {
      outcome: { ok: false, name: "NoRelaySlot", message: `STATUS offers no relay slot ${index} (reason_code ${String(status.outcome["reason_code"] ?? "?")}, ${status.slots.length} slots)` },
    };
  }
  ctx.say(`slot ${index}: lens ${slot.lens ?? "?"} order ${slot.order ?? "?"}`);
  const environment: Record<string, string | undefined> = { ...ctx.sandbox.env };
  const tamper = options["handshake"];
  if (tamper !== undefined) environment["GENTLE_RELAY_REPRO_HANDSHAKE"] = tamper;
  const request: Record<string, unknown> = {
    captureArgumentTokens: slot.captureArgumentTokens,
    ...(slot.submission ? { submission: slot.submission } : {}),
    targetCwd: ctx.sandbox.work,
    gentleAiExecutable: tamper !== undefined ? HANDSHAKE_TAMPER : SIM_GENTLE_AI,
    piExecutable: SIM_PI,
    environment,
    ...(options["pi-timeout-ms"] !== undefined ? { piTimeoutMs: Number(options["pi-timeout-ms"]) } : {}),
    ...(options["gentle-ai-timeout-ms"] !== undefined ? { gentleAiTimeoutMs: Number(options["gentle-ai-timeout-ms"]) } : {}),
  };
  let outcome: Outcome;
  try {
    const result = await fn(request);
    outcome = { ok: true, promptByteLength: result.promptByteLength, resultByteLength: result.resultByteLength, submission: result.submission };
  } catch (e) {
    outcome = errorOutcome(e);
  }
  outcome["slot.lens"] = slot.lens ?? null;
  outcome["slot.order"] = slot.order ?? null;
  outcome["slot.tokens"] = slot.captureArgumentTokens.join(" ");
  return {
    outcome,
    vars: { SLOT_TOKENS: slot.captureArgumentTokens.join(" "), SLOT_LENS: slot.lens ?? "", SLOT_ORDER: slot.order ?? "" },
  };
}

/** `bound bytes=N [client=…]`: the module's derived pi bound for a prompt size under the phase environment. */
export async function runBoundStep(ctx: StepContext, options: Record<string, string>): Promise<StepResult> {
  const { fn } = await relayFunction<(bytes: number, env: Record<string, string | undefined>) => number>(ctx, options["client"], "resolveReviewHostRelayPiTimeoutMs");
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
