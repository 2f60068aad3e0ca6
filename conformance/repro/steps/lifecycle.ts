// The lifecycle steps that put a repository world into a state: `mode`, `start` and `validate`. Each is the raw
// provider call with `--cwd $WORK` and one `--key=value` flag per option, and sets what later lines need.
import * as z from "zod/mini";
import type { StepContext, StepResult } from "./context.ts";
import { providerCall } from "./exec.ts";
import { oneOf, type StepDef } from "./step-def.ts";

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
      .check(z.refine((v) => ["enable", "disable", "status"].includes(v), { error: "must be enable, disable or status" })),
    scope: z.optional(oneOf(["global", "clone"], `must be "global" or "clone"`)),
  }),
  answerVerb: "mode",
  run: (ctx: StepContext, o) => providerCall(ctx, "gentle-ai", ["review", "mode", o["action"] as string, ...(o["scope"] ? ["--scope", o["scope"]] : [])]),
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
    const result = await providerCall(ctx, "gentle-ai", ["review", "start", "--cwd", ctx.sandbox.work, ...flags(o, [])]);
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
