// Regenerates schemas/report.schema.json from the zod source: `npx tsx conformance/report/publish-schema.ts`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import { packageRoot } from "../paths.ts";
import { CounterexampleSchema } from "../properties/counterexample-schema.ts";
import { ReportSchema } from "./report-schema.ts";

/** The published JSON Schemas, keyed by file name under schemas/. */
export function publishedSchemas(): Record<string, string> {
  return {
    "report.schema.json": `${JSON.stringify(z.toJSONSchema(ReportSchema), null, 2)}\n`,
    "counterexample.schema.json": `${JSON.stringify(z.toJSONSchema(CounterexampleSchema), null, 2)}\n`,
  };
}

if (process.argv[1]?.endsWith("publish-schema.ts")) {
  for (const [name, text] of Object.entries(publishedSchemas())) writeFileSync(join(packageRoot(), "schemas", name), text);
}
