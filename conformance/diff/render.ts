// The differential run on the console: one line per scenario, and under a divergence its minimal reproduction.
import type { Divergence, DiffReport, ScenarioVerdict } from "./report-schema.ts";

/** Bytes shown around the first difference on each side. */
const CONTEXT = 80;

function excerpt(side: Divergence["binary"], offset: number): string {
  if ("base64" in side) return `(not UTF-8, base64) ${side.base64.slice(0, 2 * CONTEXT)}`;
  const bytes = Buffer.from(side.text, "utf8");
  const from = Math.max(0, offset - CONTEXT / 2);
  const shownText = bytes.subarray(from, from + CONTEXT).toString("utf8");
  return `${from > 0 ? "…" : ""}${JSON.stringify(shownText)}${from + CONTEXT < bytes.length ? "…" : ""} (${bytes.length} bytes)`;
}

/** The lines of one divergence: the call, then both sides' bytes around the first difference. */
export function divergenceLines(d: Divergence): string[] {
  const stdin = "text" in d.call.stdin ? JSON.stringify(d.call.stdin.text) : `base64 ${d.call.stdin.base64}`;
  return [
    `    phase ${d.phase}, call ${d.index}: ${d.call.program} ${d.call.argv.map((a) => (/^[\w./:=@<>+-]+$/.test(a) ? a : JSON.stringify(a))).join(" ")}`,
    `    environment: ${d.call.handshake === null ? "no handshake" : `GENTLE_PI_REVIEW_RELAY_CONTRACT=${d.call.handshake}`}; stdin ${stdin}`,
    `    ${d.field} differs at byte ${d.offset}`,
    `      binary:    ${excerpt(d.binary, d.offset)}`,
    `      simulator: ${excerpt(d.simulator, d.offset)}`,
  ];
}

/** One scenario's line (and, for a divergence, its reproduction). */
export function verdictLines(v: ScenarioVerdict): string[] {
  switch (v.status) {
    case "pass":
      return [`PASS     ${v.id} (${v.calls} calls)`];
    case "skip":
      return [`SKIP     ${v.id}: ${v.reason ?? ""}`];
    case "error":
      return [`ERROR    ${v.id}: ${v.reason ?? ""}`];
    case "diverge": {
      const [first, ...rest] = v.divergences;
      return [
        `DIVERGE  ${v.id} (${v.divergences.length} of ${v.calls} calls)`,
        ...(first ? divergenceLines(first) : []),
        ...rest.map(
          (d) =>
            `    + phase ${d.phase}, call ${d.index}: ${d.call.program} ${d.call.argv.join(" ")}: ${d.field} differs at byte ${d.offset}`,
        ),
      ];
    }
  }
}

/** The closing lines: the verdict over scenarios and generated calls, then the counts of each part that ran. */
export function summaryLines(report: DiffReport): string[] {
  const s = report.summary;
  const g = report.generated;
  const ok = s.diverged === 0 && s.errors === 0 && g?.divergence === undefined;
  const against = `against ${report.binary.version} (profile ${report.profile})`;
  const lines: string[] = [];
  if (s.scenarios > 0 || g === undefined) {
    lines.push(
      `${s.passed} of ${s.scenarios} scenarios match (${s.diverged} diverge, ${s.skipped} skipped, ${s.errors} harness errors), ${s.calls} calls ${against}`,
    );
  }
  if (g !== undefined) {
    const outcome =
      g.divergence === undefined ? "no divergence" : `a divergence, shrunk and saved as ${g.counterexample ?? "?"}`;
    lines.push(
      `generated: ${g.calls} calls in ${g.runs} world${g.runs === 1 ? "" : "s"}, seed ${g.seed}, ${against}: ${outcome}`,
    );
  }
  return lines.map((l, i) => (i === 0 ? `${ok ? "PASS" : "FAIL"}: ${l}` : l));
}
