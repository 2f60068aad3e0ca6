// Regenerates schemas/repro.schema.json from ReproductionSchema: `npx tsx conformance/repro/write-schema.ts`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reproJsonSchemaText } from "./json-schema.ts";
import { REPO_ROOT } from "./paths.ts";

writeFileSync(join(REPO_ROOT, "schemas", "repro.schema.json"), reproJsonSchemaText());
process.stdout.write("wrote schemas/repro.schema.json\n");
