import * as z from "zod/mini";
import { ScenarioSchema } from "../simulator/scenario/schema.ts";
import { TranscriptEntrySchema } from "../simulator/output/transcript-schema.ts";

/** The published JSON Schemas (file name -> exact text): scenarios on the input side (defaults optional), transcripts as written. */
export function generateJsonSchemas(): Record<string, string> {
  const render = (schema: z.core.$ZodType, io: "input" | "output", id: string, title: string): string => {
    const { $schema, ...rest } = z.toJSONSchema(schema, { io, target: "draft-2020-12" });
    return `${JSON.stringify({ $schema, $id: id, title, ...rest }, null, 2)}\n`;
  };
  return {
    "scenario.schema.json": render(ScenarioSchema, "input", "https://gentle-relay-conformance.local/schemas/scenario.schema.json", "gentle-relay-conformance simulator scenario"),
    "transcript.schema.json": render(TranscriptEntrySchema, "output", "https://gentle-relay-conformance.local/schemas/transcript.schema.json", "gentle-relay-conformance simulator transcript entry (one JSONL line)"),
  };
}
