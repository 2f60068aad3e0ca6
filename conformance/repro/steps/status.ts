import { flattenInto, type Outcome } from "../outcome.ts";
import { runChild } from "../../process/run-child.ts";
import { HANDSHAKE_ENV, HANDSHAKE_VALUE, statusArgv } from "../../contract/provider.ts";
import { CollectInputSchema, type CollectInput } from "../../status/decode.ts";
import { relaySlots, type RelaySlot } from "../../status/slots.ts";
import * as z from "zod/mini";
import { REPRO_CALL_TIMEOUT_MS, type StepContext, type StepResult } from "./context.ts";
import { nonEmpty, oneOf, type StepDef } from "./step-def.ts";
import type { StatusRead } from "../status-read.ts";

const HANDSHAKE = { [HANDSHAKE_ENV]: HANDSHAKE_VALUE } as const;

export type { StatusRead };

/**
 * Runs STATUS (with the handshake when `handshake`, by default when agent=pi, as the host exports it), decodes what
 * a script needs and keeps it as the phase's last STATUS (for `relay status=last` and `role-vector`).
 */
export async function readStatus(
  ctx: StepContext,
  agent: boolean,
  scenarioPath?: string,
  handshake = agent,
  lineage?: string,
): Promise<StatusRead> {
  const read = await decodeStatus(ctx, agent, handshake, scenarioPath, lineage);
  ctx.sandbox.lastStatus = read;
  return read;
}

async function decodeStatus(
  ctx: StepContext,
  agent: boolean,
  handshake: boolean,
  scenarioPath: string | undefined,
  lineage: string | undefined,
): Promise<StatusRead> {
  const env = {
    ...ctx.sandbox.env,
    ...(handshake ? HANDSHAKE : {}),
    ...(scenarioPath ? { GENTLE_AI_SIM_SCENARIO: scenarioPath } : {}),
  };
  const argv = [...statusArgv(ctx.sandbox.work, agent), ...(lineage === undefined ? [] : [`--lineage=${lineage}`])];
  const answer = await runChild(ctx.sandbox.gentleAi, argv, {
    cwd: ctx.sandbox.work,
    env,
    timeoutMs: REPRO_CALL_TIMEOUT_MS,
  });
  const outcome: Outcome = { ok: answer.exitCode === 0, exitCode: answer.exitCode };
  const vars: Record<string, string> = {};
  let slots: RelaySlot[] = [];
  let decoded: CollectInput[] = [];
  if (answer.exitCode !== 0) return { outcome, vars, inputs: decoded, slots };
  let s: Record<string, unknown>;
  try {
    s = JSON.parse(answer.stdout.toString("utf8")) as Record<string, unknown>;
  } catch {
    return { outcome: { ...outcome, ok: false, message: "STATUS stdout is not JSON" }, vars, inputs: decoded, slots };
  }
  const authority = (s["authority"] ?? {}) as Record<string, unknown>;
  const next = (s["next_transition"] ?? {}) as Record<string, unknown>;
  const vr = s["validation_request"] as Record<string, unknown> | undefined;
  outcome["schema"] = String(s["schema"] ?? "");
  outcome["state"] = String(authority["state"] ?? "");
  outcome["kind"] = String(next["kind"] ?? "");
  outcome["reason_code"] = String(next["reason_code"] ?? "");
  const set = (name: string, v: unknown): void => {
    if (typeof v === "string" && v !== "") vars[name] = v;
  };
  set("LINEAGE", authority["lineage_id"]);
  set("REVISION", authority["revision"]);
  set("TARGET", s["target_identity"]);
  set("STATE", authority["state"]);
  set("REASON_CODE", next["reason_code"]);
  if (vr) {
    flattenInto(outcome, "validation_request", vr);
    set("REQUEST_HASH", vr["request_hash"]);
    if (typeof vr["request_hash"] === "string") set("REQUEST_HASH_BARE", vr["request_hash"].replace(/^sha256:/, ""));
    set("CORRECTION_TARGET", vr["correction_target_identity"]);
  }
  const inputs = ((next["collect"] as Record<string, unknown> | undefined)?.["inputs"] ?? []) as unknown[];
  try {
    decoded = inputs.map((i) => CollectInputSchema.parse(i));
    slots = [...relaySlots(decoded)];
  } catch (e) {
    outcome["decodeError"] = (e as Error).message;
  }
  outcome["inputs"] = inputs.length;
  outcome["slots"] = slots.length;
  slots.forEach((slot, i) => {
    outcome[`slot${i}.lens`] = slot.lens ?? null;
    outcome[`slot${i}.order`] = slot.order ?? null;
    outcome[`slot${i}.tokens`] = slot.captureArgumentTokens.join(" ");
  });
  return { outcome, vars, inputs: decoded, slots };
}

/**
 * `status [agent=pi] [handshake=set|unset] [lineage=ID]`: one negotiated STATUS; sets $LINEAGE, $REVISION,
 * $REQUEST_HASH, ...
 */
export async function runStatusStep(ctx: StepContext, options: Record<string, string>): Promise<StepResult> {
  const agent = options["agent"] === "pi";
  const read = await readStatus(
    ctx,
    agent,
    undefined,
    options["handshake"] === undefined ? agent : options["handshake"] === "set",
    options["lineage"],
  );
  return { outcome: read.outcome, vars: read.vars };
}

/** The `status` step. */
export const statusStep: StepDef<"status"> = {
  name: "status",
  options: z.strictObject({
    agent: z.optional(oneOf(["pi", "none"], `must be "pi" or "none"`)),
    handshake: z.optional(oneOf(["set", "unset"], `must be "set" or "unset"`)),
    lineage: z.optional(nonEmpty()),
  }),
  answerVerb: "status",
  run: runStatusStep,
};
