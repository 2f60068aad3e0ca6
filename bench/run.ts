// `npm run bench`: runs every registered section and prints its figures. Add a section with one import line below.
import { benchSections } from "./registry.ts";
import "./simulator.ts";
import "./relay.ts";
import "./conformance.ts";

for (const section of benchSections()) {
  process.stdout.write(`\n## ${section.name}\n\n| measurement | median ms | median ratio | min ratio | target | ok |\n|---|---:|---:|---:|---:|---|\n`);
  for (const row of await section.run()) {
    const ratio = row.ratio === undefined ? "" : `${row.ratio.toFixed(2)}x`;
    const target = row.target === undefined ? "" : `<= ${row.target}x`;
    const ok = row.ratio === undefined || row.target === undefined ? "" : row.ratio <= row.target ? "yes" : "NO";
    const minRatio = row.minRatio === undefined ? "" : `${row.minRatio.toFixed(2)}x`;
    process.stdout.write(`| ${row.label} | ${row.medianMs.toFixed(1)} | ${ratio} | ${minRatio} | ${target} | ${ok} |\n`);
  }
}
