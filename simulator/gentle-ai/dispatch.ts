// Top-level routing of one gentle-ai invocation (provider reference §2): version, review help, review <verb>.
import type { Invocation, Outcome, VerbHandler } from "./invocation.ts";
import { goQuoteStr } from "../go/go-quote.ts";
import { reviewFacade } from "./review-facade.ts";
import { negotiationRefusal, okOutcome, plainError } from "./route.ts";
import { version } from "./verbs/version.ts";

/**
 * The lifecycle verbs that act on one lineage (in the repository world they find it in the repository). STATUS
 * chooses its facts itself (status.ts), as it reads every lineage of the clone.
 */
const LINEAGE_VERBS: ReadonlySet<string> = new Set([
  "capture-result",
  "capture-evidence",
  "finalize",
  "capture-refuter",
  "capture-validation",
  "lens-context",
]);

/** The verbs a profile's `review` command knows. */
function reviewVerbs(invocation: Invocation): readonly string[] {
  return reviewFacade(invocation.scenario.profile).verbs;
}

function reviewHelp(invocation: Invocation): Outcome {
  return okOutcome(reviewFacade(invocation.scenario.profile).usage);
}

// Verb modules load on demand so `version` and help never pay for state, crypto or zod at start-up.
const HANDLERS: Readonly<Record<string, () => Promise<VerbHandler>>> = {
  status: async () => (await import("./verbs/status/status.ts")).status,
  capabilities: async () => (await import("./verbs/capabilities.ts")).capabilities,
  "lens-context": async () => (await import("./verbs/capture-result/lens-context.ts")).lensContext,
  "capture-result": async () => (await import("./verbs/capture-result/capture-result.ts")).captureResult,
  "capture-evidence": async () => (await import("./verbs/correction/capture-evidence.ts")).captureEvidence,
  finalize: async () => (await import("./verbs/correction/finalize.ts")).finalize,
  "capture-refuter": async () => (await import("./verbs/correction/capture-role.ts")).captureRole("capture-refuter"),
  "capture-validation": async () =>
    (await import("./verbs/correction/capture-role.ts")).captureRole("capture-validation"),
  // START and VALIDATE always read the repository at --cwd: they have no seeded counterpart.
  start: async () => (await import("./verbs/start.ts")).start,
  validate: async () => (await import("./verbs/validate/validate.ts")).validate,
};

/**
 * The top-level commands `app.RunArgs` knows (internal/app/app.go, the same at 301fb2ad and fb55ef7b). Any other first
 * argument is refused with `unknown command` once system detection passes; these are known but not simulated.
 */
const TOP_LEVEL_COMMANDS: ReadonlySet<string> = new Set([
  "bench-model-picker",
  "uninstall",
  "skill-registry",
  "sdd-status",
  "sdd-continue",
  "sdd-attempt",
  "sdd-verify-validate",
  "codegraph",
  "review-start",
  "review-resume",
  "review-step",
  "review-bundle-export",
  "review-bundle-import",
  "review-validate",
  "install",
  "sync",
  "update",
  "upgrade",
  "restore",
  "doctor",
]);

/** A first argument other than version, help and review: app.go's `unknown command`, or not simulated. */
function topLevelCommand(command: string | undefined): Outcome {
  // No argument launches the TUI; the known commands install, sync, diagnose and so on.
  if (command === undefined || TOP_LEVEL_COMMANDS.has(command))
    return plainError(`gentle-ai-sim: command ${JSON.stringify(command ?? "")} is not simulated`);
  return plainError(`unknown command ${goQuoteStr(command)} — run 'gentle-ai help' for available commands`);
}

/** Routes one invocation to its verb handler and returns the streams and exit code the real CLI would produce. */
export async function dispatch(invocation: Invocation): Promise<Outcome> {
  const [command, verb] = invocation.argv;
  if (command === "version" || command === "--version" || command === "-v") return version(invocation);
  if (command === "help" || command === "--help" || command === "-h")
    return (await import("./verbs/top-help.ts")).topHelp(invocation);
  if (command !== "review") return topLevelCommand(command);
  if (verb === undefined || verb === "help" || verb === "-h" || verb === "--help") return reviewHelp(invocation);
  // The kill switch is dispatched ahead of the review facade, so every profile answers it (internal/app/app.go).
  if (verb === "mode") return (await import("./verbs/review-mode.ts")).reviewMode(invocation);
  // A negotiated verb's --contract is checked before the verb runs, simulated or not (RunReview's failure route).
  const refused = negotiationRefusal(invocation.argv.slice(1));
  if (refused) return refused;
  // runReviewCommand's default branch (review_facade.go:817): %q of the verb.
  if (!reviewVerbs(invocation).includes(verb)) return plainError(`unknown review command ${goQuoteStr(verb)}`);
  const load = HANDLERS[verb];
  if (!load) return plainError(`gentle-ai-sim: review ${verb} is not simulated`);
  if (invocation.lineagePinned === false && LINEAGE_VERBS.has(verb)) {
    // A scenario without a pinned lineage: the repository at the call's directory decides what exists.
    const scope = await import("./repository-scope.ts");
    const where = scope.repositoryScope(invocation);
    if (where !== undefined) return scope.runLineageVerb(invocation, where, await load());
  }
  // Handlers get the invocation unchanged: their own arguments are invocation.argv.slice(2).
  return (await load())(invocation);
}
