// merge-reports: the shards of one `run --shard i/n` matrix back into the report the unsharded run gives.
import { REPORT_SCHEMA_ID, type ClauseResult, type Report } from "./report-schema.ts";

/** Reports that are not shards of one run (different seed, relay, catalogue, selection, or a shard twice): exit 2. */
export class MergeInputError extends Error {
  override readonly name = "MergeInputError";
}

/** The first of `fields` on which some report differs from the first, with both values. */
function differing(reports: readonly { readonly name: string; readonly report: Report }[]): string | undefined {
  const [first, ...rest] = reports;
  if (!first) return undefined;
  const fields = {
    seed: (r: Report) => r.seed,
    relay: (r: Report) => r.relay,
    catalogue: (r: Report) => r.catalogue ?? null,
    profiles: (r: Report) => r.profiles.join(","),
    runs: (r: Report) => r.runs,
  };
  for (const [field, get] of Object.entries(fields)) {
    for (const other of rest) {
      if (get(other.report) !== get(first.report)) {
        return `${other.name} has ${field} ${JSON.stringify(get(other.report))}, ${first.name} has ${field} ${JSON.stringify(get(first.report))}: not shards of one run`;
      }
    }
  }
  return undefined;
}

/** Checks that the reports are the complete set of shards of one run (a lone unsharded report counts as 1/1). */
function checkShards(reports: readonly { readonly name: string; readonly report: Report }[]): void {
  const count = reports[0]?.report.shard?.count ?? 1;
  const seen = new Map<number, string>();
  for (const { name, report } of reports) {
    const shard = report.shard ?? { index: 1, count: 1, selected: report.clauses.length };
    if (shard.count !== count)
      throw new MergeInputError(
        `${name} is shard ${shard.index}/${shard.count}, ${reports[0]?.name} is of ${count} shards`,
      );
    const twice = seen.get(shard.index);
    if (twice !== undefined) throw new MergeInputError(`${name} and ${twice} are both shard ${shard.index}/${count}`);
    seen.set(shard.index, name);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new MergeInputError(
      `shard${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${count}`).join(", ")} missing`,
    );
}

/**
 * One report from the shards of a run: its clauses in catalogue order (`order`: clause IDs), the summary recounted,
 * the earliest start, the longest shard's duration (shards run side by side) and every shard's relay calls.
 */
export function mergeReports(
  reports: readonly { readonly name: string; readonly report: Report }[],
  order: readonly string[],
): Report {
  const first = reports[0];
  if (!first) throw new MergeInputError("no reports to merge");
  const mismatch = differing(reports);
  if (mismatch !== undefined) throw new MergeInputError(mismatch);
  checkShards(reports);
  const owner = new Map<string, string>();
  const clauses: ClauseResult[] = [];
  for (const { name, report } of reports) {
    for (const clause of report.clauses) {
      const other = owner.get(clause.id);
      if (other !== undefined) throw new MergeInputError(`clause ${clause.id} is in both ${other} and ${name}`);
      owner.set(clause.id, name);
      clauses.push(clause);
    }
  }
  const selected = first.report.shard?.selected ?? first.report.clauses.length;
  if (clauses.length !== selected)
    throw new MergeInputError(
      `the shards hold ${clauses.length} clauses, the run selected ${selected} (different --grep?)`,
    );
  const rank = new Map(order.map((id, i) => [id, i]));
  clauses.sort((a, b) => (rank.get(a.id) ?? order.length) - (rank.get(b.id) ?? order.length));
  const count = (status: ClauseResult["status"]): number => clauses.filter((c) => c.status === status).length;
  return {
    schema: REPORT_SCHEMA_ID,
    relay: first.report.relay,
    profiles: [...first.report.profiles],
    seed: first.report.seed,
    runs: first.report.runs,
    startedAt: reports.map((r) => r.report.startedAt).sort()[0] ?? first.report.startedAt,
    durationMs: Math.max(...reports.map((r) => r.report.durationMs)),
    cases: reports.reduce((sum, r) => sum + r.report.cases, 0),
    ...(first.report.catalogue === undefined ? {} : { catalogue: first.report.catalogue }),
    summary: { passed: count("pass"), failed: count("fail"), skipped: count("skip"), errored: count("error") },
    clauses,
    ...leftBehindOf(reports.map((r) => r.report)),
  };
}

/** Every shard's end-of-run finds, when any shard has some. */
function leftBehindOf(reports: readonly Report[]): Pick<Report, "leftBehind"> {
  const left = reports.flatMap((r) => r.leftBehind ?? []);
  return left.length === 0 ? {} : { leftBehind: left };
}
