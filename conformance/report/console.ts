import type { ClauseResult, Report } from "./report-schema.ts";

const MARK = { pass: "PASS", fail: "FAIL", skip: "SKIP", error: "ERROR" } as const;

/** One progress line per finished clause. */
export function clauseLine(result: ClauseResult): string {
  return `${MARK[result.status]}  ${result.id}${result.message ? `  ${result.message.split("\n")[0]?.slice(0, 300)}` : ""}\n`;
}

/** The per-clause × profile table and the summary. */
export function consoleTable(report: Report): string {
  const width = Math.max(...report.clauses.map((c) => c.id.length), 6);
  const header = `${"CLAUSE".padEnd(width)}  ${report.profiles.map((p) => p.padEnd(6)).join("  ")}  RESULT\n`;
  const rows = report.clauses.map((c) => {
    const cells = report.profiles.map((p) => (c.profiles.find((r) => r.profile === p)?.status ?? "-").padEnd(6));
    return `${c.id.padEnd(width)}  ${cells.join("  ")}  ${c.status}\n`;
  });
  const { passed, failed, skipped, errored } = report.summary;
  const summary = `${passed} passed, ${failed} failed, ${skipped} skipped, ${errored} errored — ${report.cases} cases in ${(report.durationMs / 1000).toFixed(1)}s (seed ${report.seed})\n`;
  return `\n${header}${rows.join("")}\n${summary}${leftBehindLines(report)}`;
}

/** The end-of-run scan's finds (process/left-behind.ts), one line each; nothing when it found none. */
function leftBehindLines(report: Report): string {
  const left = report.leftBehind ?? [];
  if (left.length === 0) return "";
  const head = `\nleft behind: ${left.length} process(es) started during the run still run outside every process tree of the run (no PID namespace held the relay); not killed, since one may not be the relay's:\n`;
  return `${head}${left.map((p) => `  pid ${p.pid} argv ${JSON.stringify(p.argv)}\n`).join("")}`;
}
