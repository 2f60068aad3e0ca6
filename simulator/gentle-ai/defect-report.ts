// The defect report gentle-ai saves when a mutating operation fails outside every typed classification
// (cli/review_defect_report.go reviewUnexpectedFaultDefectReportClause): a Markdown file under
// `<git-common-dir>/gentle-ai/defect-reports/`, named by the clause appended to the stderr line.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { sha256Hex } from "../platform/sha256.ts";
import { safeScanArguments, scrubCause } from "../output/envelope.ts";
import { resolveRepository } from "../repository/locate.ts";
import type { Profile } from "../scenario/schema.ts";
import type { Invocation, Outcome } from "./invocation.ts";
import { operationRow, scanShape } from "./operation-registry.ts";
import { ReviewRefusal } from "./refusal.ts";
import { runRouted } from "./route.ts";
import type { Route, StdoutBuffer } from "./route.ts";
import { buildSettingsOf } from "./verbs/capabilities.ts";

const ISSUES_URL = "https://github.com/Gentleman-Programming/gentle-ai/issues/new/choose";
const REASON = "operation_outcome_unknown";
const PRECONDITION =
  "a mutating review operation failed in a way no typed classification anticipated, so its true outcome is unknown to the tool";

/** The failure the report describes. */
export interface DefectFailure {
  readonly operation: string;
  readonly phase: string;
  /** The cause, or the fixed message when there is none. */
  readonly message: string;
  readonly lineageId?: string;
}

/** reviewDefectReportOperationShape: `review <command>` plus the sorted names of the flags a clean safe scan read. */
function operationShape(command: string, args: readonly string[]): string {
  const scan = safeScanArguments(args, scanShape(operationRow(command)));
  const names = scan.valid ? [...scan.values.keys()].map((name) => `--${name}`).sort() : [];
  return ["review", command, ...names].join(" ");
}

/** reviewDefectReport.render (the Markdown body; RFC 3339 seconds, as Go's time.RFC3339). */
function render(profile: Profile, shape: string, failure: DefectFailure): string {
  const identifiers: [string, string][] = [
    ["operation", failure.operation],
    ["phase", failure.phase],
  ];
  if (failure.lineageId) identifiers.push(["lineage", failure.lineageId]);
  identifiers.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const generated = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const value = (v: string): string => {
    const scrubbed = scrubCause(v);
    return scrubbed.includes(" ") ? "<redacted>" : scrubbed;
  };
  return (
    `# Bug Description\n\nGentle AI reached a tool-internal fault state (\`${REASON}\`) that should never happen. ${PRECONDITION}\n\n` +
    `## Steps to Reproduce\n\nNot automatically captured. Re-run the operation that surfaced this:\n\n\`\`\`\n${scrubCause(shape)}\n\`\`\`\n\n` +
    `## Expected Behavior\n\nThe operation completes, or reports a caller-actionable stop.\n\n` +
    `## Actual Behavior\n\n${scrubCause(failure.message)}\n\n` +
    `## Gentle AI Version\n\n${profile} (${buildSettingsOf(profile).vcs_revision})\n\n` +
    `## Operating System\n\nlinux/amd64\n\n` +
    `## AI Agent / Client\n\nUnspecified (filled automatically; edit if known)\n\n` +
    `## Affected Area\n\nCLI (commands, flags)\n\n` +
    "## Logs / Error Output\n\n```\n" +
    `reason_code: ${REASON}\n` +
    identifiers.map(([k, v]) => `${k}: ${value(v)}\n`).join("") +
    `generated_at: ${generated}\n\`\`\`\n` +
    `\nFile this report at ${ISSUES_URL}.\n`
  );
}

/**
 * Saves the report for the repository at `root` and returns the clause for the stderr line, or "" when no repository
 * holds `root` or the write fails (gentle-ai never lets the report mask the fault).
 */
export function defectReportClause(
  profile: Profile,
  root: string,
  command: string,
  args: readonly string[],
  failure: DefectFailure,
): string {
  try {
    const repo = resolveRepository(root);
    const dir = join(repo.gitCommonDir, "gentle-ai", "defect-reports");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const content = render(profile, operationShape(command, args), failure);
    // reviewDefectReportFileName: the reason code as a slug, then 12 hex of the content's sha256.
    const path = join(dir, `${REASON.replace(/_/g, "-")}-${sha256Hex(content).slice(0, 12)}.md`);
    writeFileSync(path, content, { mode: 0o600 });
    return ` A defect report was saved at ${path} -- file it at ${ISSUES_URL}.`;
  } catch {
    return "";
  }
}

/**
 * Runs a verb body on its route like runRouted; when it fails with an untyped native error and the operation mutates,
 * the report is saved and named at the end of the stderr line, on every route
 * (`reviewUnexpectedFaultDefectReportClause` via `reviewAppendUnexpectedFaultDefectClause` on the plain route,
 * review_defect_report.go:293-353). The report goes to the repository at the safe-scanned --cwd, trimmed, default the
 * process cwd: a --cwd that holds none gets no clause.
 */
export async function runRoutedReportingDefects(
  invocation: Invocation,
  route: Route,
  command: string,
  argv: readonly string[],
  body: (out: StdoutBuffer) => void | Promise<void>,
): Promise<Outcome> {
  let fault: ReviewRefusal | undefined;
  const outcome = await runRouted(route, async (out) => {
    try {
      await body(out);
    } catch (error) {
      if (error instanceof ReviewRefusal && error.kind === "native" && route.mutates) fault = error;
      throw error;
    }
  });
  if (fault === undefined || outcome.exitCode === 0) return outcome;
  const cwd =
    safeScanArguments(argv, scanShape(operationRow(command)))
      .values.get("cwd")
      ?.trim() ?? "";
  const failure: DefectFailure = {
    operation: route.operation,
    phase: "native_running",
    message: fault.envelopeCause,
    lineageId: route.lineageId,
  };
  const clause = defectReportClause(
    invocation.scenario.profile,
    resolve(invocation.cwd, cwd === "" ? "." : cwd),
    command,
    argv,
    failure,
  );
  if (clause === "") return outcome;
  return {
    ...outcome,
    stderr: Buffer.from(`${outcome.stderr.toString("utf8").replace(/\n$/, "")}${clause}\n`, "utf8"),
  };
}
