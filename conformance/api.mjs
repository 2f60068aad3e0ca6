// The package's "." entry: the bundled API (dist/api.mjs, built by `prepare`), or its TypeScript source through tsx
// when dist/ was never built (a git dependency installed with --ignore-scripts), with one warning on stderr.
import { existsSync } from "node:fs";

const bundle = new URL("../dist/api.mjs", import.meta.url);
let api;
if (existsSync(bundle)) {
  api = await import(bundle.href);
} else {
  process.stderr.write(
    "gentle-relay-conformance: dist/ is not built (installed without scripts?); loading the API from TypeScript through tsx (slower).\n",
  );
  const { tsImport } = await import("tsx/esm/api");
  api = await tsImport(new URL("./api.ts", import.meta.url).href, import.meta.url);
}

export const {
  runConformance,
  listClauses,
  verifyBinary,
  passed,
  verdictExit,
  junitXml,
  markdownSummary,
  ReportSchema,
  REPORT_SCHEMA_ID,
  VerifyReportSchema,
  VERIFY_REPORT_SCHEMA_ID,
  ConformanceInputError,
  HarnessError,
} = api;
