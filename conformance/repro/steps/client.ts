import {
  parseDefects,
  type CompactTargetedValidation,
  type CorrectionClient,
  type CorrectionClientContext,
  type CreateCorrectionClient,
  type DefectId,
} from "../client-contract.ts";
import { clientFromFinalizeModule, hasFinalizeApi } from "../clients/adapt-finalize-module.ts";
import { loadModule, ReproInputError } from "../modules.ts";
import { errorOutcome, flattenInto, type Outcome } from "../outcome.ts";
import { runTaskInHost } from "../../process/run-task.ts";
import { REPO_ROOT, reproWorker } from "../paths.ts";
import * as z from "zod/mini";
import type { StepContext, StepResult } from "./context.ts";
import { defects, nonEmpty, oneOf, section, type StepDef } from "./step-def.ts";

/** The bound of one `process=fresh` call, start-up included. */
const FRESH_PROCESS_TIMEOUT_MS = 120_000;

/** Evidence bytes used when a step names no `input=` section. */
export const DEFAULT_EVIDENCE = "targeted verification: go test ./internal/review/... ok\n";

/** One client operation, as the worker process receives it. */
export interface ClientJob {
  readonly modulePath: string;
  readonly context: ClientContextInput;
  readonly op: "capture-evidence" | "finalize";
  readonly outcome?: string;
  readonly evidenceBase64?: string;
  readonly validation?: CompactTargetedValidation;
  /** The world's TMPDIR (the client stages its evidence under os.tmpdir()). */
  readonly tmpdir?: string;
}

/** A client context whose defect list may be left to the module's DEFAULT_DEFECTS. */
export type ClientContextInput = Omit<CorrectionClientContext, "defects"> & { readonly defects?: readonly DefectId[] };

/** Creates a client from a module exporting createCorrectionClient (and optionally DEFAULT_DEFECTS). */
export async function createClient(modulePath: string, context: ClientContextInput): Promise<CorrectionClient> {
  const mod = await loadModule(modulePath);
  const create = mod["createCorrectionClient"];
  if (typeof create !== "function") {
    if (hasFinalizeApi(mod)) return clientFromFinalizeModule(mod, { ...context, defects: context.defects ?? [] });
    throw new ReproInputError(`${modulePath} exports neither createCorrectionClient() nor the relay/finalize.ts API`);
  }
  const defaults = Array.isArray(mod["DEFAULT_DEFECTS"]) ? (mod["DEFAULT_DEFECTS"] as DefectId[]) : [];
  return (create as CreateCorrectionClient)({ ...context, defects: context.defects ?? defaults });
}

/** Runs one job on a client and flattens the result. */
export async function runJob(
  client: CorrectionClient,
  job: Omit<ClientJob, "modulePath" | "context">,
): Promise<Outcome> {
  try {
    if (job.op === "capture-evidence") {
      const { record } = await client.captureEvidence({
        outcome: job.outcome ?? "passed",
        evidence: Buffer.from(job.evidenceBase64 ?? "", "base64"),
      });
      const out: Outcome = { ok: true };
      flattenInto(out, "record", record);
      return out;
    }
    const { stdout } = await client.finalize({ validation: job.validation as CompactTargetedValidation });
    const out: Outcome = { ok: true, stdout };
    try {
      flattenInto(out, "receipt", JSON.parse(stdout));
    } catch {
      // Non-JSON success output is kept whole in `stdout`.
    }
    return out;
  } catch (e) {
    return errorOutcome(e);
  }
}

// A fresh host process: the task loads the module itself in a new relay host, so nothing this runner remembers
// reaches it; the host's tree is killed once it answered or ran past FRESH_PROCESS_TIMEOUT_MS.
async function runInFreshProcess(job: ClientJob): Promise<Outcome> {
  const task = { module: reproWorker(), export: "runClientJob", input: job };
  try {
    const { value, hostPid } = await runTaskInHost(task, {
      cwd: REPO_ROOT,
      env: process.env,
      timeoutMs: FRESH_PROCESS_TIMEOUT_MS,
    });
    return { ...(value as Outcome), hostPid: hostPid ?? null };
  } catch (error) {
    throw new Error(`repro worker failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * `capture-evidence` / `finalize [client=…] [defects=…] [process=same|fresh] [input=S] [outcome=O] [validation=S]`.
 * process=same reuses this phase's client instance (one host process that remembers its capture);
 * process=fresh runs the call in a new Node process with a new instance (a host restart in between).
 */
export async function runClientStep(
  ctx: StepContext,
  op: ClientJob["op"],
  options: Record<string, string>,
): Promise<StepResult> {
  const choice = ctx.module(options["client"]);
  if (!choice.client) throw new ReproInputError(`${choice.label} is not a FINALIZE client module (no client entry)`);
  const defects =
    options["defects"] !== undefined
      ? parseDefects(options["defects"])
      : (options["client"] ?? "subject") === "subject"
        ? ctx.subjectDefects
        : undefined;
  const context = {
    gentleAiExecutable: ctx.sandbox.gentleAi,
    targetCwd: ctx.sandbox.work,
    environment: { ...ctx.sandbox.env },
    ...(defects ? { defects } : {}),
  };
  const job: Omit<ClientJob, "modulePath" | "context"> =
    op === "capture-evidence"
      ? {
          op,
          outcome: options["outcome"] ?? "passed",
          evidenceBase64: Buffer.from(
            options["input"] ? ctx.section(options["input"]) : DEFAULT_EVIDENCE,
            "utf8",
          ).toString("base64"),
        }
      : {
          op,
          validation: JSON.parse(
            ctx.expand(options["validation"] ? ctx.section(options["validation"]) : "{}"),
          ) as CompactTargetedValidation,
        };
  if (options["process"] === "fresh") {
    await createClient(choice.client, context); // fail fast (exit 2) on a module that is not a client
    return {
      outcome: await runInFreshProcess({ ...job, modulePath: choice.client, context, tmpdir: ctx.sandbox.tmp }),
    };
  }
  const key = `${choice.client}|${(defects ?? ["default"]).join(",")}`;
  let client = ctx.sandbox.clients.get(key);
  if (!client) {
    client = await createClient(choice.client, context);
    ctx.sandbox.clients.set(key, client);
  }
  return { outcome: await runJob(client, job) };
}

const PROCESS = oneOf(["same", "fresh"], `must be "same" or "fresh"`);

/** The `capture-evidence` step. */
export const captureEvidenceStep: StepDef<"capture-evidence"> = {
  name: "capture-evidence",
  options: z.strictObject({
    client: z.optional(nonEmpty()),
    defects: z.optional(defects()),
    process: z.optional(PROCESS),
    input: z.optional(section()),
    outcome: z.optional(
      oneOf(
        ["passed", "verification_failed", "procedural_tooling_failed"],
        "must be passed, verification_failed or procedural_tooling_failed",
      ),
    ),
  }),
  sectionOptions: ["input"],
  answerVerb: "capture-evidence",
  run: (ctx, options) => runClientStep(ctx, "capture-evidence", options),
};

/** The `finalize` step. */
export const finalizeStep: StepDef<"finalize"> = {
  name: "finalize",
  options: z.strictObject({
    client: z.optional(nonEmpty()),
    defects: z.optional(defects()),
    process: z.optional(PROCESS),
    validation: z.optional(section()),
  }),
  sectionOptions: ["validation"],
  answerVerb: "finalize",
  run: (ctx, options) => runClientStep(ctx, "finalize", options),
};

/** One runCorrectionFinalize call, as the worker in a fresh relay host receives it (JSON: evidence as base64). */
export interface CorrectionFinalizeJob {
  readonly modulePath: string;
  readonly validation: unknown;
  readonly evidenceBase64: string;
  readonly outcome: string;
  readonly cwd: string;
  readonly gentleAiExecutable: string;
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly tmpdir?: string;
}

/** Calls the module's runCorrectionFinalize and flattens the receipt it returns, or what it threw. */
export async function correctionFinalize(job: CorrectionFinalizeJob): Promise<Outcome> {
  const run = (await loadModule(job.modulePath))["runCorrectionFinalize"];
  if (typeof run !== "function") throw new ReproInputError(`${job.modulePath} exports no runCorrectionFinalize()`);
  try {
    const result = (await run({
      validation: job.validation,
      evidence: { payload: Buffer.from(job.evidenceBase64, "base64"), outcome: job.outcome },
      cwd: job.cwd,
      gentleAiExecutable: job.gentleAiExecutable,
      environment: { ...job.environment },
    })) as { finalize?: { stdout?: unknown } };
    const out: Outcome = { ok: true };
    const stdout = result.finalize?.stdout;
    if (stdout !== undefined)
      flattenInto(
        out,
        "receipt",
        JSON.parse(Buffer.isBuffer(stdout) ? stdout.toString("utf8") : String(stdout)) as unknown,
      );
    return out;
  } catch (e) {
    return errorOutcome(e);
  }
}

/**
 * `correction-finalize [client=…] [validation=S] [input=S] [outcome=O]`: the client module's runCorrectionFinalize,
 * gentle-pi's one-call FINALIZE (STATUS, evidence when asked, STATUS, FINALIZE, STATUS), run in a fresh relay host
 * as a host process would, given the validation document of section S (`$VARS` expanded) and the evidence bytes of
 * section `input` (default DEFAULT_EVIDENCE).
 */
export async function runCorrectionFinalizeStep(
  ctx: StepContext,
  options: Record<string, string>,
): Promise<StepResult> {
  const choice = ctx.module(options["client"]);
  if (!choice.client) throw new ReproInputError(`${choice.label} is not a FINALIZE client module (no client entry)`);
  // Bad input (no such export) is reported from here, before any call.
  if (typeof (await loadModule(choice.client))["runCorrectionFinalize"] !== "function")
    throw new ReproInputError(`${choice.client} exports no runCorrectionFinalize()`);
  const job: CorrectionFinalizeJob = {
    modulePath: choice.client,
    validation: JSON.parse(ctx.expand(options["validation"] ? ctx.section(options["validation"]) : "{}")) as unknown,
    evidenceBase64: Buffer.from(options["input"] ? ctx.section(options["input"]) : DEFAULT_EVIDENCE, "utf8").toString(
      "base64",
    ),
    outcome: options["outcome"] ?? "passed",
    cwd: ctx.sandbox.work,
    gentleAiExecutable: ctx.sandbox.gentleAi,
    environment: { ...ctx.sandbox.env },
    tmpdir: ctx.sandbox.tmp,
  };
  const task = { module: reproWorker(), export: "runCorrectionFinalizeJob", input: job };
  const { value } = await runTaskInHost(task, {
    cwd: REPO_ROOT,
    env: process.env,
    timeoutMs: FRESH_PROCESS_TIMEOUT_MS,
  });
  return { outcome: value as Outcome };
}
/** The `correction-finalize` step. */
export const correctionFinalizeStep: StepDef<"correction-finalize"> = {
  name: "correction-finalize",
  options: z.strictObject({
    client: z.optional(nonEmpty()),
    validation: z.optional(section()),
    input: z.optional(section()),
    outcome: z.optional(
      oneOf(
        ["passed", "verification_failed", "procedural_tooling_failed"],
        "must be passed, verification_failed or procedural_tooling_failed",
      ),
    ),
  }),
  sectionOptions: ["validation", "input"],
  answerVerb: "finalize",
  run: runCorrectionFinalizeStep,
};
