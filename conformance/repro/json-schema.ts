import * as z from "zod/mini";
import { ReproductionSchema } from "./format.ts";

/** Exact text of the published schemas/repro.schema.json: the parsed form of a `.txtar` reproduction. */
export function reproJsonSchemaText(): string {
  const { $schema, ...rest } = z.toJSONSchema(ReproductionSchema, { io: "output", target: "draft-2020-12" });
  const doc = {
    $schema,
    $id: "https://gentle-relay-conformance.local/schemas/repro.schema.json",
    title: "gentle-relay-conformance issue reproduction (parsed .txtar: phases, steps, assertions, sections)",
    ...rest,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
