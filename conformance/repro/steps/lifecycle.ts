// The lifecycle steps that put a repository world into a state: `mode`, `start` and `validate`. Each is the raw
// provider call with `--cwd $WORK` and one `--key=value` flag per option, and sets what later lines need.
import * as z from "zod/mini";
import type { StepContext, StepResult } from "./context.ts";
import { providerCall } from "./exec.ts";
import { count, oneOf, section, type StepDef } from "./step-def.ts";
import { DEFAULT_EVIDENCE } from "./client.ts";
import { HANDSHAKE_ENV, HANDSHAKE_VALUE, statusArgv } from "../../contract/provider.ts";
import { roleVectorSlots } from "../../status/slots.ts";

const value = (): z.ZodMiniOptional<z.ZodMiniString> => z.optional(z.string());

/** `--key=value` for each option but those the step places itself. */
function flags(options: Readonly<Record<string, string>>, skip: readonly string[]): string[] {
  return Object.entries(options)
    .filter(([k]) => !skip.includes(k))
    .map(([k, v]) => `--${k}=${v}`);
}

/** Variables from a lifecycle answer's JSON: the lineage, its target and state. */
function lifecycleVars(result: StepResult): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, key] of [
    ["LINEAGE", "json.lineage_id"],
    ["TARGET", "json.target_identity"],
    ["STATE", "json.state"],
  ] as const) {
    const v = result.outcome[key];
    if (typeof v === "string" && v !== "") vars[name] = v;
  }
  return vars;
}

/** `mode enable|disable|status [scope=global|clone]`: `gentle-ai review mode …` in $WORK. */
export const modeStep: StepDef<"mode"> = {
  name: "mode",
  positional: "action",
  options: z.strictObject({
    action: z
      .string({ error: "mode needs an action: enable, disable or status" })
      .check(
        z.refine((v) => ["enable", "disable", "status"].includes(v), { error: "must be enable, disable or status" }),
      ),
    scope: z.optional(oneOf(["global", "clone"], `must be "global" or "clone"`)),
  }),
  answerVerb: "mode",
  run: (ctx: StepContext, o) =>
    providerCall(ctx, "gentle-ai", [
      "review",
      "mode",
      o["action"] as string,
      ...(o["scope"] ? ["--scope", o["scope"]] : []),
    ]),
};

/** `start [consent=…] [contract=…] …`: START on $WORK; sets $LINEAGE, $TARGET and $STATE from its answer. */
export const startStep: StepDef<"start"> = {
  name: "start",
  options: z.strictObject({
    agent: value(),
    "base-ref": value(),
    consent: value(),
    contract: value(),
    focus: value(),
    "intended-untracked": value(),
    lineage: value(),
    locale: value(),
    policy: value(),
    projection: value(),
    target: value(),
  }),
  answerVerb: "start",
  async run(ctx, o) {
    const result = await providerCall(ctx, "gentle-ai", [
      "review",
      "start",
      "--cwd",
      ctx.sandbox.work,
      ...flags(o, []),
    ]);
    return { ...result, vars: lifecycleVars(result) };
  },
};

/** `validate [gate=…] [contract=…] [lineage=…]`: VALIDATE on $WORK. */
export const validateStep: StepDef<"validate"> = {
  name: "validate",
  options: z.strictObject({ gate: value(), contract: value(), lineage: value(), "base-ref": value(), policy: value() }),
  answerVerb: "validate",
  run: (ctx, o) => providerCall(ctx, "gentle-ai", ["review", "validate", "--cwd", ctx.sandbox.work, ...flags(o, [])]),
};

/** The execute transition a STATUS answer names: its operation's verb and argument tokens, or why there is none. */
function executeTransition(stdout: Buffer): { verb: string; tokens: { name: string; token: string }[] } | string {
  let next:
    { kind?: unknown; reason_code?: unknown; execute?: { operation?: unknown; arguments?: unknown } } | undefined;
  try {
    next = (JSON.parse(stdout.toString("utf8")) as { next_transition?: typeof next }).next_transition;
  } catch {
    return "STATUS stdout is not JSON";
  }
  if (
    next?.kind !== "execute" ||
    typeof next.execute?.operation !== "string" ||
    !Array.isArray(next.execute.arguments)
  ) {
    return `STATUS names no execute transition (kind ${JSON.stringify(next?.kind)}, reason_code ${JSON.stringify(next?.reason_code)})`;
  }
  const tokens = (next.execute.arguments as { name?: unknown; token?: unknown }[]).map((a) => ({
    name: String(a.name),
    token: String(a.token),
  }));
  return { verb: next.execute.operation.replace(/^review\./, ""), tokens };
}

/**
 * `transition [agent=pi] [consent=V] [outcome=V] [gate=V]`: the host's generic lifecycle move. Reads the negotiated
 * STATUS and runs the execute transition it names, argument tokens verbatim but for the ones the options replace.
 */
export const transitionStep: StepDef<"transition"> = {
  name: "transition",
  options: z.strictObject({
    agent: z.optional(oneOf(["pi", "none"], `must be "pi" or "none"`)),
    consent: value(),
    outcome: value(),
    gate: value(),
  }),
  async run(ctx, o): Promise<StepResult> {
    const agent = o["agent"] === "pi";
    // A Pi host exports the handshake for every call it makes, the transition it runs included.
    const handshake: Record<string, string> = agent ? { [HANDSHAKE_ENV]: HANDSHAKE_VALUE } : {};
    const status = await providerCall(ctx, "gentle-ai", statusArgv(ctx.sandbox.work, agent), undefined, handshake);
    const next =
      status.answer?.stdout === undefined ? "STATUS gave no answer" : executeTransition(status.answer.stdout);
    if (typeof next === "string") return { outcome: { ok: false, name: "NoTransition", message: next } };
    const argv = next.tokens.map((t) => (t.name in o && t.name !== "agent" ? `--${t.name}=${o[t.name]}` : t.token));
    const result = await providerCall(ctx, "gentle-ai", ["review", next.verb, ...argv], undefined, handshake);
    return { ...result, outcome: { ...result.outcome, operation: next.verb }, vars: lifecycleVars(result) };
  },
};

/** A collect input's provider-owned submission form, as STATUS prints it. */
interface SubmissionForm {
  readonly operation_token: string;
  readonly argument_tokens: readonly string[];
  readonly values: readonly { readonly slot: string; readonly allowed_values?: readonly string[] }[];
}

/** The submission form of collect input `index` in a STATUS answer, or why there is none. */
function collectForm(stdout: Buffer, index: number): SubmissionForm | string {
  let next:
    { kind?: unknown; reason_code?: unknown; collect?: { inputs?: { submission?: SubmissionForm }[] } } | undefined;
  try {
    next = (JSON.parse(stdout.toString("utf8")) as { next_transition?: typeof next }).next_transition;
  } catch {
    return "STATUS stdout is not JSON";
  }
  const form = next?.kind === "collect" ? next.collect?.inputs?.[index]?.submission : undefined;
  if (form === undefined)
    return `STATUS names no collect input ${index} with a submission form (kind ${JSON.stringify(next?.kind)}, reason_code ${JSON.stringify(next?.reason_code)})`;
  return form;
}

/**
 * `collect [input=N] [outcome=V] [stdin=SECTION]`: fills the submission form of a STATUS collect input (not a relay
 * slot: those go through `relay`) and runs it. The input slot becomes `-`, fed the section's bytes (default: one
 * line of passing verification evidence); the outcome slot takes `outcome=`, else its first allowed value.
 */
export const collectStep: StepDef<"collect"> = {
  name: "collect",
  options: z.strictObject({ input: z.optional(count()), outcome: value(), stdin: z.optional(section()) }),
  sectionOptions: ["stdin"],
  async run(ctx, o): Promise<StepResult> {
    const status = await providerCall(ctx, "gentle-ai", statusArgv(ctx.sandbox.work, false));
    const form =
      status.answer?.stdout === undefined
        ? "STATUS gave no answer"
        : collectForm(status.answer.stdout, Number(o["input"] ?? "0"));
    if (typeof form === "string") return { outcome: { ok: false, name: "NoCollectInput", message: form } };
    const fill = (slot: string, allowed: readonly string[] | undefined): string =>
      slot === "input" ? "-" : slot === "outcome" ? (o["outcome"] ?? allowed?.[0] ?? "") : `{{${slot}}}`;
    const argv = form.argument_tokens.map((t) =>
      t.replace(/\{\{(\w+)\}\}/g, (_m, slot: string) =>
        fill(slot, form.values.find((v) => v.slot === slot)?.allowed_values),
      ),
    );
    const stdin = Buffer.from(o["stdin"] === undefined ? DEFAULT_EVIDENCE : ctx.section(o["stdin"]), "utf8");
    const result = await providerCall(ctx, "gentle-ai", ["review", form.operation_token, ...argv], stdin);
    return { ...result, outcome: { ...result.outcome, operation: form.operation_token } };
  },
};

/**
 * `role-vector [index=N]`: a self-contained role vector of the phase's last STATUS, run verbatim with the handshake
 * (relay reference §12.2): gentle-ai spawns the pi on PATH itself.
 */
export const roleVectorStep: StepDef<"role-vector"> = {
  name: "role-vector",
  options: z.strictObject({ index: z.optional(count()) }),
  async run(ctx, o): Promise<StepResult> {
    const index = Number(o["index"] ?? "0");
    const vector = roleVectorSlots(ctx.sandbox.lastStatus?.inputs ?? [])[index];
    if (vector === undefined)
      return {
        outcome: { ok: false, name: "NoRoleVector", message: `the last STATUS offers no role vector ${index}` },
      };
    const verb = vector.captureOperation.replace(/^review\./, "");
    return providerCall(ctx, "gentle-ai", ["review", verb, ...vector.argumentTokens], undefined, {
      [HANDSHAKE_ENV]: HANDSHAKE_VALUE,
    });
  },
};
