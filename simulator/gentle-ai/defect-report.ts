// The defect report gentle-ai saves when a mutating operation fails outside every typed classification
// (cli/review_defect_report.go reviewUnexpectedFaultDefectReportClause): a Markdown file under
// `<git-common-dir>/gentle-ai/defect-reports/`, named by the clause appended to the stderr line.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../runtime/sha256.ts";
import { scrubCause } from "../output/envelope.ts";
import { resolveRepository } from "../repository/locate.ts";
import type { Profile } from "../scenario/schema.ts";
import { buildSettingsOf } from "./verbs/capabilities.ts";

const ISSUES_URL = "https://github.com/Gentleman-Programming/gentle-ai/issues/new/choose";
const REASON = "operation_outcome_unknown";
const PRECONDITION = "a mutating review operation failed in a way no typed classification anticipated, so its true outcome is unknown to the tool";

/** The failure the report describes. */
export interface DefectFailure {
  readonly operation: string;
  readonly phase: string;
  /** The cause, or the fixed message when there is none. */
  readonly message: string;
  readonly lineageId?: string;
}

/** reviewDefectReportOperationShape: `review <command>` plus the sorted names of the flags given, never values. */
function operationShape(command: string, args: readonly string[]): string {
  const names = new Set<string>();
  for (const arg of args) {
    if (arg === "--" || !arg.startsWith("-")) continue;
    const name = arg.replace(/^--?/, "").split("=")[0]!;
    if (name !== "") names.add(`--${name}`);
  }
  return ["review", command, ...[...names].sort()].join(" ");
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
export function defectReportClause(profile: Profile, root: string, command: string, args: readonly string[], failure: DefectFailure): string {
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
