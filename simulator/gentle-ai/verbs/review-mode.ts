// review mode enable|disable|status (cli/review_mode.go RunReviewMode): the user's kill switch. Dispatched ahead of
// the review facade, so it answers whatever the profile; its refusals are plain `Error: <text>` with exit 1.
import { resolve } from "node:path";
import type { Invocation, Outcome } from "../invocation.ts";
import type { FlagSetSpec } from "../../go/flag-spec.ts";
import { helpRequested, parseFlags } from "../../go/go-flags.ts";
import { usageText } from "../argv/usage.ts";
import { goQuoteStr } from "../../go/go-quote.ts";
import { encodeReviewJson } from "../../go/go-json.ts";
import { resolveRepository, RepositoryNotFoundError, type RepositoryIdentity } from "../../repository/locate.ts";
import {
  ModeError,
  readGlobalMode,
  resolveMode,
  resolveModeWithoutClone,
  setCloneLocalMode,
  writeGlobalMode,
  type ModeStatus,
} from "../../repository/review-mode.ts";
import type { ReviewModeResult } from "../../contract/review-mode.ts";

const MODE_SCHEMA = "gentle-ai.review-mode/v1";

const HELP =
  "Usage: gentle-ai review mode <enable|disable|status> [--cwd <repo>] [--scope <global|clone>] [--expected-revision <revision>] [--json]\n" +
  "User-owned switch. Receipt-driven development is off until you enable it: run 'gentle-ai review mode enable --scope global' to opt in. Any off wins: a repository may disable it for this clone but can never require it, and no other clone inherits the override. status is read-only and reports both sources plus the effective mode. Enabling applies to future candidates only.\n";

function flagSet(operation: string): FlagSetSpec {
  return {
    name: `review mode ${operation}`,
    details: "Read or set the user-controlled receipt-driven-development kill switch.",
    flags: [
      { name: "cwd", kind: "string", default: ".", usage: "repository path" },
      { name: "scope", kind: "string", default: "global", usage: "mode source to write: global or clone" },
      { name: "expected-revision", kind: "string", usage: "exact clone-local revision this write replaces" },
      { name: "json", kind: "bool", usage: "emit the machine-readable review mode result" },
    ],
  };
}

function label(mode: string): string {
  return mode === "" ? "unset" : mode;
}

/** emitReviewMode: the JSON result, or the three-line human summary (plus the reach note). */
function render(
  operation: ReviewModeResult["operation"],
  scope: ReviewModeResult["scope"],
  status: ModeStatus,
  json: boolean,
): Buffer {
  if (json)
    return encodeReviewJson({
      schema: MODE_SCHEMA,
      operation,
      scope,
      status: { ...status },
    } satisfies ReviewModeResult);
  let text =
    `receipt-driven development: ${label(status.effective)} (decided by ${status.source})\n` +
    `  global:      ${label(status.global)}\n  clone-local: ${label(status.clone_local)}\n`;
  if (status.reach === "this_build")
    text +=
      "  note:        applied for this gentle-ai only; a gentle-ai installed before the switch moved reads a location this command could not open, and keeps enforcing the value it holds there\n";
  return Buffer.from(text, "utf8");
}

function ok(help: string, body: Buffer): Outcome {
  return { stdout: Buffer.concat([Buffer.from(help), body]), stderr: Buffer.alloc(0), exitCode: 0 };
}

function fail(stdout: Buffer | string, text: string): Outcome {
  return {
    stdout: typeof stdout === "string" ? Buffer.from(stdout, "utf8") : stdout,
    stderr: Buffer.from(`Error: ${text}\n`, "utf8"),
    exitCode: 1,
  };
}

/** `gentle-ai review mode …`: args are invocation.argv after `review mode`. */
export function reviewMode(invocation: Invocation): Outcome {
  const args = invocation.argv.slice(2);
  const operation = args[0];
  if (operation === undefined || operation === "help" || operation === "-h" || operation === "--help")
    return { stdout: Buffer.from(HELP, "utf8"), stderr: Buffer.alloc(0), exitCode: 0 };
  if (operation !== "enable" && operation !== "disable" && operation !== "status")
    return fail("", `unknown review mode command ${goQuoteStr(operation)}`);
  const spec = flagSet(operation);
  const rest = args.slice(1);
  const parsed = parseFlags(spec, rest, usageText);
  if (!parsed.ok) return fail(parsed.error.output, parsed.error.message);
  const f = parsed.flags;
  const help = f.help ? f.output : "";
  // reviewHelpRequested (review.go:131-138): an exact -h/--help anywhere, even after `--` where the flag parser never
  // saw it (then no usage was printed), ends the call successfully.
  if (helpRequested(rest)) return { stdout: Buffer.from(help, "utf8"), stderr: Buffer.alloc(0), exitCode: 0 };
  if (f.positionals.length > 0) return fail(help, `unexpected review mode argument ${goQuoteStr(f.positionals[0]!)}`);
  const scope = f.str("scope").trim();
  if (scope !== "global" && scope !== "clone")
    return fail(help, `unknown review mode scope ${goQuoteStr(f.str("scope"))}`);
  const json = f.bool("json");
  const cwd = resolve(invocation.cwd, f.str("cwd"));
  const resultScope = operation === "status" ? "both" : scope;
  let status: ModeStatus = {
    schema: "gentle-ai.rdd-mode-status/v1",
    global: "",
    clone_local: "",
    effective: "off",
    source: "default",
  };
  try {
    if (operation !== "status" && scope === "global") writeGlobalMode(invocation.env, operation);
    const global = readGlobalMode(invocation.env);
    let repo: RepositoryIdentity;
    try {
      // An empty --cwd never means the working folder: gentle-ai's resolver refuses it (not a missing path).
      if (f.str("cwd").trim() === "") throw new RepositoryNotFoundError("snapshot repository path is required", "git");
      repo = resolveRepository(cwd);
    } catch (error) {
      // A missing path is fs.ErrNotExist, which ResolveRDDMode reads as "no clone-local override".
      if (error instanceof RepositoryNotFoundError && error.missing && (operation === "status" || scope === "global")) {
        status = resolveModeWithoutClone(global);
        return ok(help, render(operation, resultScope, status, json));
      }
      throw error;
    }
    if (operation === "status" || scope === "global") status = resolveMode(repo, global);
    else {
      const expected = f.has("expected-revision") ? f.str("expected-revision") : (resolveMode(repo, "").revision ?? "");
      status = setCloneLocalMode(repo, operation === "enable" ? "unset" : "off", expected, global);
    }
  } catch (error) {
    if (error instanceof ModeError)
      return fail(
        Buffer.concat([Buffer.from(help), render(operation, resultScope, error.status, json)]),
        error.message,
      );
    if (error instanceof RepositoryNotFoundError) {
      // cloneLocalRDDModeIdentity wraps the lease error; ResolveRDDMode fails closed to clone_local, while a clone
      // write that read no revision first returns applyReviewMode's zero status, whose source is empty.
      const source = operation !== "status" && scope === "clone" && !f.has("expected-revision") ? "" : "clone_local";
      return fail(
        Buffer.concat([Buffer.from(help), render(operation, resultScope, { ...status, source }, json)]),
        `resolve review mode repository identity: ${error.detail}`,
      );
    }
    throw error;
  }
  return ok(help, render(operation, resultScope, status, json));
}
