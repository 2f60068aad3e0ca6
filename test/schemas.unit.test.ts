import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateJsonSchemas } from "../scripts/json-schemas.ts";

const SCHEMAS = fileURLToPath(new URL("../schemas", import.meta.url));

describe("published JSON Schemas", () => {
  it("schemas/ holds exactly the generated files, each equal to what the zod sources give (npm run schemas)", () => {
    const generated = generateJsonSchemas();
    expect(readdirSync(SCHEMAS).sort()).toEqual(Object.keys(generated).sort());
    for (const [name, text] of Object.entries(generated))
      expect(readFileSync(join(SCHEMAS, name), "utf8"), name).toBe(text);
  });
});
