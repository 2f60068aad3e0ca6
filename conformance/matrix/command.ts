import { startProgress } from "../cli/progress.ts";
import { RelayLoadError, runCatalogue } from "../runner/run-catalogue.ts";
import { resolve } from "node:path";
import { UsageError, type Command } from "../cli/command.ts";
import { HELP_OPTION, parseOptions, resolveRelayPath, type OptionTable } from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";
import { CATALOGUE_OPTIONS, catalogueSelection, verdictExit } from "../clauses/catalogue-options.ts";

/** `run`'s selection and budget options, with --relay repeated (one row per relay). */
export const MATRIX_OPTIONS = {
  relay: {
    type: "string",
    multiple: true,
    valueName: "path",
    description: "relay module (repeat for each relay; at least one)",
  },
  ...CATALOGUE_OPTIONS,
  quiet: { type: "boolean", description: "no progress line" },
  help: HELP_OPTION,
} as const satisfies OptionTable;

export const matrixCommand: Command = {
  usage: usageText({
    synopsis: ["relay-conformance matrix --relay <a> --relay <b> … [options]"],
    about: `Runs the catalogue for each relay and prints a relays × profiles table (pass/fail per profile,
with the failing clause IDs). Exit 0 when every cell passes, 1 when any fails, 2 on bad input, 3 when the
harness could not decide a cell (clauses in "error") and none failed.`,
    options: MATRIX_OPTIONS,
    footer: `Progress goes to stderr, one relay at a time: on a terminal one live line (cases done/total, failed clauses,
elapsed time, ETA), erased before the table; otherwise (CI) a plain line every 10% of the cases or every 10 s.`,
  }),
  async run(args, io) {
    const { values } = parseOptions(args, MATRIX_OPTIONS);
    if (values.help) {
      io.stdout(this.usage);
      return 0;
    }
    const relays = (values.relay ?? []).map((r) => resolveRelayPath(io.cwd, r));
    if (relays.length === 0) throw new UsageError("matrix needs at least one --relay");
    const { clauses, profiles, seed, runs, timeoutMs, concurrency } = catalogueSelection(values);
    const rows: string[][] = [];
    let anyFail = false;
    let anyError = false;
    for (const [index, relay] of relays.entries()) {
      const { progress } = startProgress(
        io,
        `relay-conformance matrix (relay ${index + 1}/${relays.length})`,
        "cases",
        values.quiet ?? false,
      );
      let [done, total, failed] = [0, 0, 0];
      let report;
      try {
        report = await runCatalogue({
          relayModule: relay,
          clauses,
          profiles,
          runs,
          seed,
          timeoutMs,
          concurrency,
          counterexampleDir: resolve(io.cwd, ".relay-conformance/counterexamples"),
          onPlan: (count) => progress.update({ done, total: (total = count), failed }),
          onCase: (_id, _profile, finished) => progress.update({ done: (done = finished), total, failed }),
          onClause: (c) =>
            c.status === "fail" || c.status === "error"
              ? progress.update({ done, total, failed: (failed += 1) })
              : undefined,
        });
      } catch (error) {
        if (error instanceof RelayLoadError) throw new UsageError(error.message);
        throw error;
      } finally {
        progress.finish();
      }
      const cells = profiles.map((p) => {
        const failing = report.clauses
          .filter((c) => c.profiles.some((r) => r.profile === p && r.status === "fail"))
          .map((c) => c.id);
        const errored = report.clauses
          .filter((c) => c.profiles.some((r) => r.profile === p && r.status === "error"))
          .map((c) => c.id);
        if (failing.length > 0) anyFail = true;
        if (errored.length > 0) anyError = true;
        return (
          [
            failing.length > 0 ? `FAIL (${failing.join(", ")})` : "",
            errored.length > 0 ? `ERROR (${errored.join(", ")})` : "",
          ]
            .filter((t) => t !== "")
            .join(" ") || "pass"
        );
      });
      rows.push([relay, ...cells]);
    }
    const header = ["relay", ...profiles];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
    const line = (cells: readonly string[]): string =>
      `${cells
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd()}\n`;
    io.stdout(`\n${line(header)}${rows.map(line).join("")}`);
    return verdictExit({ failed: anyFail ? 1 : 0, errored: anyError ? 1 : 0 });
  },
};
