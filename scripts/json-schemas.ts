import * as z from "zod/mini";
import { ScenarioSchema } from "../simulator/scenario/schema.ts";
import { TranscriptEntrySchema } from "../simulator/output/transcript-schema.ts";
import { GoldenSchema } from "../conformance/goldens/golden-schema.ts";
import { VerifyReportSchema } from "../conformance/verify/report-schema.ts";
import { ReproductionSchema } from "../conformance/repro/format.ts";
import { ReportSchema } from "../conformance/report/report-schema.ts";
import { CounterexampleSchema } from "../conformance/clauses/counterexample-schema.ts";
import { FidelityReportSchema } from "../conformance/fidelity/report-schema.ts";
import { LanesReportSchema } from "../conformance/upstream-lanes/report-schema.ts";
import { ReleaseReportSchema } from "../conformance/release/report-schema.ts";
import { DiffReportSchema } from "../conformance/diff/report-schema.ts";

interface Published {
  readonly schema: z.core.$ZodType;
  // input: what a person writes (defaults optional); output: what the tool writes.
  readonly io: "input" | "output";
  readonly title: string;
}

// Every file format of the project, one entry each: the single list `npm run schemas` publishes and a test checks.
const PUBLISHED: Readonly<Record<string, Published>> = {
  "scenario.schema.json": { schema: ScenarioSchema, io: "input", title: "gentle-relay-conformance simulator scenario" },
  "transcript.schema.json": {
    schema: TranscriptEntrySchema,
    io: "output",
    title: "gentle-relay-conformance simulator transcript entry (one JSONL line)",
  },
  "golden.schema.json": {
    schema: GoldenSchema,
    io: "input",
    title: "gentle-relay-conformance golden (its scenario script, provenance, normalised calls and step outcomes)",
  },
  "diff-report.schema.json": {
    schema: DiffReportSchema,
    io: "output",
    title: "gentle-relay-conformance diff report (a gentle-ai build against the simulator, scenario by scenario)",
  },
  "verify-report.schema.json": {
    schema: VerifyReportSchema,
    io: "output",
    title: "gentle-relay-conformance verify report (probe verdicts and golden drift for one gentle-ai binary)",
  },
  "repro.schema.json": {
    schema: ReproductionSchema,
    io: "output",
    title: "gentle-relay-conformance scenario script (parsed .txtar: phases, world, steps, assertions, sections)",
  },
  "report.schema.json": { schema: ReportSchema, io: "output", title: "gentle-relay-conformance run report" },
  "counterexample.schema.json": {
    schema: CounterexampleSchema,
    io: "input",
    title: "gentle-relay-conformance property counterexample (replayable)",
  },
  "fidelity-report.schema.json": {
    schema: FidelityReportSchema,
    io: "output",
    title:
      "gentle-relay-conformance fidelity report (simulator documents judged by a gentle-ai tree's published schemas)",
  },
  "upstream-lanes-report.schema.json": {
    schema: LanesReportSchema,
    io: "output",
    title: "gentle-relay-conformance upstream-lanes report (gentle-pi's own lanes against the simulator)",
  },
  "release-report.schema.json": {
    schema: ReleaseReportSchema,
    io: "output",
    title:
      "gentle-relay-conformance release report (a gentle-ai release's binary verified and its published contract checked)",
  },
};

/** The published JSON Schemas (file name under schemas/ -> exact text), generated from the zod sources. */
export function generateJsonSchemas(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(PUBLISHED).map(([name, { schema, io, title }]) => {
      const { $schema, ...rest } = z.toJSONSchema(schema, { io, target: "draft-2020-12" });
      const doc = { $schema, $id: `https://gentle-relay-conformance.local/schemas/${name}`, title, ...rest };
      return [name, `${JSON.stringify(doc, null, 2)}\n`];
    }),
  );
}
