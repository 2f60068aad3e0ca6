// The mutation report: StrykerJS's mutation-testing-report-schema JSON (what mutation-testing-elements and the
// Stryker dashboard read), the HTML page that renders it offline, the score and the console summary.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { relative, sep } from "node:path";
import type { MutationTestResult } from "mutation-testing-report-schema/api";
import type { MutantResult, MutantStatus, MutateResult } from "./mutate.ts";

const requireHere = createRequire(import.meta.url);

/** Stryker's default thresholds (the HTML report colours scores by them). */
export const THRESHOLDS = { high: 80, low: 60 } as const;

/** The counts the score is made of. */
export interface MutationCounts {
  readonly killed: number;
  readonly survived: number;
  readonly timeout: number;
  readonly noCoverage: number;
  readonly compileError: number;
  readonly runtimeError: number;
  readonly ignored: number;
}

/** Counts per status. */
export function countMutants(mutants: readonly { readonly status: MutantStatus }[]): MutationCounts {
  const n = (status: MutantStatus): number => mutants.filter((m) => m.status === status).length;
  return {
    killed: n("Killed"),
    survived: n("Survived"),
    timeout: n("Timeout"),
    noCoverage: n("NoCoverage"),
    compileError: n("CompileError"),
    runtimeError: n("RuntimeError"),
    ignored: n("Ignored"),
  };
}

/**
 * The mutation score as Stryker computes it: detected (killed and timed out) over valid mutants (compile and runtime
 * errors and ignored mutants do not count; no-coverage mutants do, undetected). 100 when no mutant is valid.
 */
export function mutationScore(counts: MutationCounts): number {
  const detected = counts.killed + counts.timeout;
  const valid = detected + counts.survived + counts.noCoverage;
  return valid === 0 ? 100 : (detected * 100) / valid;
}

/** A path in the report: relative to `cwd`, with `/`. */
function reportPath(cwd: string, file: string): string {
  return relative(cwd, file).split(sep).join("/");
}

/** The report as mutation-testing-report-schema 2 describes it. */
export function mutationReport(
  result: MutateResult,
  options: { readonly cwd: string; readonly breakAt?: number; readonly config: Record<string, unknown> },
): MutationTestResult {
  const files: MutationTestResult["files"] = {};
  for (const [file, source] of result.sources) {
    files[reportPath(options.cwd, file)] = {
      language: /\.[cm]?tsx?$/.test(file) ? "typescript" : "javascript",
      source,
      mutants: [],
    };
  }
  for (const m of result.mutants) {
    files[reportPath(options.cwd, m.file)]?.mutants.push({
      id: m.id,
      mutatorName: m.mutatorName,
      replacement: m.replacement,
      location: { start: m.start, end: m.end },
      status: m.status,
      ...(m.statusReason === undefined ? {} : { statusReason: m.statusReason }),
      ...(m.killedBy === undefined ? {} : { killedBy: [m.killedBy] }),
      coveredBy: [...m.coveredBy],
      testsCompleted: m.testsCompleted,
      static: m.static,
      ...(m.duration === undefined ? {} : { duration: m.duration }),
    });
  }
  return {
    schemaVersion: "2",
    thresholds: { ...THRESHOLDS, ...(options.breakAt === undefined ? {} : { break: options.breakAt }) },
    files,
    testFiles: {
      "clause catalogue": { tests: result.clauses.map((c) => ({ id: c.id, name: `${c.id}: ${c.statement}` })) },
    },
    framework: { name: "relay-conformance mutate" },
    performance: {
      setup: Math.round(result.setupMs),
      initialRun: Math.round(result.coverageMs),
      mutation: Math.round(result.durationMs - result.setupMs - result.coverageMs),
    },
    config: options.config,
  } as MutationTestResult;
}

/** The JSON Schema the report follows (the package's own copy). */
export function reportJsonSchema(): Record<string, unknown> {
  return JSON.parse(
    readFileSync(requireHere.resolve("mutation-testing-report-schema/mutation-testing-report-schema.json"), "utf8"),
  ) as Record<string, unknown>;
}

/** A self-contained HTML page: mutation-testing-elements' bundle inlined, the report beside it; no network. */
export function htmlReport(report: MutationTestResult, title: string): string {
  const bundle = readFileSync(requireHere.resolve("mutation-testing-elements/mutation-test-elements.js"), "utf8");
  // `<` escaped, so no source text in the report can close the script element.
  const data = JSON.stringify(report).replace(/</g, "\\u003c");
  const escapedTitle = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapedTitle}</title>
</head>
<body>
<mutation-test-report-app title-postfix="${escapedTitle}"></mutation-test-report-app>
<script>
${bundle.replace(/<\/script/gi, "<\\/script")}
</script>
<script>
document.querySelector("mutation-test-report-app").report = ${data};
</script>
</body>
</html>
`;
}

/** The survivor's lines before and after the mutation, as a diff. */
export function survivorDiff(source: string, m: Pick<MutantResult, "start" | "end" | "replacement">): string {
  const lines = source.split("\n");
  const original = lines.slice(m.start.line - 1, m.end.line);
  const first = original[0] ?? "";
  const last = original[original.length - 1] ?? "";
  const mutated = `${first.slice(0, m.start.column - 1)}${m.replacement}${last.slice(m.end.column - 1)}`;
  return [...original.map((l) => `    - ${l}`), ...mutated.split("\n").map((l) => `    + ${l}`)].join("\n");
}

/** Score, counts, then every survivor with file:line, the replacement as a diff, and what it means. */
export function consoleSummary(result: MutateResult, cwd: string): string {
  const counts = countMutants(result.mutants);
  const out = [
    `mutation score ${mutationScore(counts).toFixed(2)}% (${result.mutants.length} mutants in ${(result.durationMs / 1000).toFixed(1)}s)`,
    `killed ${counts.killed}, survived ${counts.survived}, timeout ${counts.timeout}, no coverage ${counts.noCoverage}` +
      notCounted(counts),
  ];
  const undetected = result.mutants.filter((m) => m.status === "Survived" || m.status === "NoCoverage");
  for (const m of [...undetected].sort(byPlace)) {
    const source = result.sources.get(m.file) ?? "";
    out.push(
      "",
      `${m.status === "Survived" ? "SURVIVED" : "NO COVERAGE"}  ${reportPath(cwd, m.file)}:${m.start.line}:${m.start.column}  ${m.mutatorName} #${m.id}`,
      survivorDiff(source, m),
      m.status === "Survived" ? "  no clause pins this behaviour" : "  no clause case executes this code",
    );
  }
  return `${out.join("\n")}\n`;
}

/** The statuses left out of the score, when there are any: ` (not counted: ignored 3)`. */
function notCounted(counts: MutationCounts): string {
  const parts = [
    ["compile error", counts.compileError],
    ["runtime error", counts.runtimeError],
    ["ignored", counts.ignored],
  ] as const;
  const shown = parts.filter(([, n]) => n > 0).map(([name, n]) => `${name} ${n}`);
  return shown.length === 0 ? "" : ` (not counted: ${shown.join(", ")})`;
}

function byPlace(a: MutantResult, b: MutantResult): number {
  return (
    a.file.localeCompare(b.file) ||
    a.start.line - b.start.line ||
    a.start.column - b.start.column ||
    Number(a.id) - Number(b.id)
  );
}
