// `npm run bench`: runs every registered section, prints its figures, then writes them all to bench/RESULTS.md.
// Add a section with one import line below.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { benchSections } from "./registry.ts";
import { resultsDocument, sectionTable, type SectionResult } from "./results.ts";
import "./simulator.ts";
import "./relay.ts";
import "./conformance.ts";
import "./mutate.ts";
import "./diff.ts";
import "./hang.ts";

const RESULTS = fileURLToPath(new URL("RESULTS.md", import.meta.url));

const results: SectionResult[] = [];
for (const section of benchSections()) {
  const result: SectionResult = { name: section.name, rows: await section.run() };
  results.push(result);
  process.stdout.write(`\n${sectionTable(result)}`);
}
writeFileSync(RESULTS, resultsDocument(results, new Date()));
process.stdout.write(`\nwrote ${RESULTS}\n`);
