import * as z from "zod/mini";
import { FidelityReportSchema } from "../fidelity/report-schema.ts";
import { VerifyReportSchema } from "../verify/report-schema.ts";

export const RELEASE_REPORT_SCHEMA_ID = "gentle-relay-conformance.release-report/v1";

/** Where the checked contracts/ tree came from, and what it was verified against (see source-tarball.ts). */
export const SourceProvenanceSchema = z.strictObject({
  repo: z.string(),
  tag: z.string(),
  // The annotated tag object the tag ref points at; null for a lightweight tag.
  tagObject: z.nullable(z.string()),
  // The commit the tag names: the tarball's pax comment matched it and its contracts/ blobs matched its tree.
  commit: z.string(),
  tree: z.string(),
  // sha256 of the tarball as downloaded: recorded, not compared (GitHub publishes no digest for source archives).
  tarballSha256: z.string(),
  topFolder: z.string(),
  // Files under contracts/ whose git blob ids matched the commit's tree.
  contractsFiles: z.number(),
});
export type SourceProvenance = z.infer<typeof SourceProvenanceSchema>;

/** The release archive the binary came from and the binary's digests. */
export const ReleaseBinarySchema = z.strictObject({
  asset: z.string(),
  // sha256 of the platform archive; it matched the release's checksums.txt.
  archiveSha256: z.string(),
  binarySha256: z.string(),
  path: z.string(),
});

/** binary-drift: verify found drift from the profile; contract-changed: the tag's contracts reject the simulator. */
export const ReleaseCauseSchema = z.strictObject({
  cause: z.enum(["binary-drift", "contract-changed"]),
  message: z.string(),
});
export type ReleaseCause = z.infer<typeof ReleaseCauseSchema>;

/** The `release <tag> --contracts` report (`--json`); without --contracts, `--json` writes the verify report alone. */
export const ReleaseReportSchema = z.strictObject({
  schema: z.literal(RELEASE_REPORT_SCHEMA_ID),
  tag: z.string(),
  binary: ReleaseBinarySchema,
  source: SourceProvenanceSchema,
  verify: VerifyReportSchema,
  contracts: FidelityReportSchema,
  // Empty when the verdict is pass; both causes when both failed.
  causes: z.array(ReleaseCauseSchema),
  verdict: z.enum(["pass", "fail"]),
});
export type ReleaseReport = z.infer<typeof ReleaseReportSchema>;
