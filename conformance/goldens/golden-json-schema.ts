import * as z from "zod/mini";
import { GoldenSchema } from "./golden-schema.ts";

/** Exact text of the published schemas/golden.schema.json, generated from GoldenSchema (input side: defaults optional). */
export function goldenJsonSchemaText(): string {
  const { $schema, ...rest } = z.toJSONSchema(GoldenSchema, { io: "input", target: "draft-2020-12" });
  const doc = {
    $schema,
    $id: "https://gentle-relay-conformance.local/schemas/golden.schema.json",
    title: "gentle-relay-conformance golden (scenario, conversation, normalised calls and outcomes)",
    ...rest,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
