import * as z from "zod/mini";
import { VerifyReportSchema } from "./report-schema.ts";

/** Exact text of the published schemas/verify-report.schema.json, generated from VerifyReportSchema. */
export function verifyReportJsonSchemaText(): string {
  const { $schema, ...rest } = z.toJSONSchema(VerifyReportSchema, { io: "output", target: "draft-2020-12" });
  const doc = {
    $schema,
    $id: "https://gentle-relay-conformance.local/schemas/verify-report.schema.json",
    title: "gentle-relay-conformance verify report (probe verdicts and golden drift for one gentle-ai binary)",
    ...rest,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
