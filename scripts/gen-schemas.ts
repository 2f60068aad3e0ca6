// Regenerates every schemas/*.schema.json from the zod sources: `npm run schemas`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateJsonSchemas } from "./json-schemas.ts";

const dir = fileURLToPath(new URL("../schemas", import.meta.url));
for (const [name, text] of Object.entries(generateJsonSchemas())) {
  writeFileSync(join(dir, name), text);
  process.stdout.write(`wrote schemas/${name}\n`);
}
