import type { Report } from "./report-schema.ts";

const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** A Markdown summary: totals, then one row per clause with its per-profile status. */
export function markdownSummary(report: Report): string {
  const { passed, failed, skipped, errored } = report.summary;
  const head = `| Clause | ${report.profiles.join(" | ")} | Result | Message |\n|---|${report.profiles.map(() => "---").join("|")}|---|---|\n`;
  const rows = report.clauses
    .map(
      (c) =>
        `| \`${c.id}\` | ${report.profiles.map((p) => c.profiles.find((r) => r.profile === p)?.status ?? "–").join(" | ")} | **${c.status}** | ${cell(c.message.slice(0, 300))} |`,
    )
    .join("\n");
  return `# Relay conformance: ${failed > 0 ? "FAIL" : errored > 0 ? "ERROR" : "PASS"}\n\nRelay \`${report.relay}\`, profiles ${report.profiles.join(", ")}, seed ${report.seed}, ${report.runs} property runs.\n\n**${passed} passed, ${failed} failed, ${skipped} skipped, ${errored} errored** (${report.cases} cases, ${(report.durationMs / 1000).toFixed(1)} s).\n\n${head}${rows}\n`;
}
