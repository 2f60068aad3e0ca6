// review capabilities (provider reference §12): always negotiated. Only the schema id, the top-level key order,
// package.version and executable.sha256 are documented; every other member is (inferred) and kept minimal.
import { sha256Hex } from "../../runtime/sha256.ts";
import { readFileSync } from "node:fs";
import type { Invocation, Outcome } from "../invocation.ts";
import type { FlagSetSpec } from "../argv/go-flags.ts";
import { scanFlagsOf } from "../argv/go-flags.ts";
import { traitsOf } from "../profiles.ts";
import type { ProfileTraits } from "../profiles.ts";
import { contractOf, runRouted } from "../route.ts";
import type { Route, StdoutBuffer } from "../route.ts";
import { HANDSHAKE_ENV, HANDSHAKE_VALUE, handshakePresent, PI_TRANSPORT } from "../gates/handshake.ts";
import { CONTRACT_V1, CONTRACT_V2, safeScanLineage } from "../../output/envelope.ts";
import { encodeReviewJson } from "../../output/go-json.ts";
import type { Profile } from "../../scenario/schema.ts";
import { contractFlag, parseVerbFlags, refusePositionals } from "./verb-flags.ts";

const FLAGS: FlagSetSpec = {
  name: "review capabilities",
  details: "Report the negotiated review integration capabilities of this binary.",
  flags: [
    { name: "contract", kind: "string", usage: "negotiated review integration contract" },
    { name: "cwd", kind: "string", default: ".", usage: "repository path" },
  ],
};

/** Per-profile capability schema and the commit the release binary reports (§1, §14). */
const BUILDS: Readonly<Record<Profile, { schema: string; vcs: string }>> = {
  "2.3.0": { schema: "gentle-ai.review-integration.capabilities/v2.2", vcs: "3d1e6735" },
  "2.4.0": { schema: "gentle-ai.review-integration.capabilities/v2.2", vcs: "301fb2ad" },
  "2.5.0": { schema: "gentle-ai.review-integration.capabilities/v2.4", vcs: "f5dd1a6c" },
};

const OPERATIONS = ["status", "start", "finalize", "capture-result", "capture-evidence", "capture-refuter", "capture-validation", "capabilities"];

function sha256File(path: string): string {
  return "sha256:" + sha256Hex(readFileSync(path));
}

async function body(invocation: Invocation, traits: ProfileTraits, argv: readonly string[], out: StdoutBuffer): Promise<void> {
  const f = parseVerbFlags(FLAGS, argv, out);
  if (f === undefined) return;
  refusePositionals(f, "review capabilities");
  const contract = contractFlag(f) ?? CONTRACT_V2;
  const build = BUILDS[invocation.scenario.profile];
  const relay = traits.honoursHandshake;
  const operations = OPERATIONS.filter((o) => traits.roleVerbs || (o !== "capture-refuter" && o !== "capture-validation"));
  out.write(
    encodeReviewJson({
      schema: build.schema,
      contract,
      protocol: { name: "gentle-ai.review-integration", contracts: [CONTRACT_V1, CONTRACT_V2] },
      package: { name: "gentle-ai", version: traits.version },
      build: { id: "sha256:" + sha256Hex(`gentle-ai ${traits.version} ${build.vcs}`), vcs_revision: build.vcs },
      executable: { path: invocation.executablePath, sha256: sha256File(invocation.executablePath) },
      operations: operations.map((o) => `review.${o}`),
      gates: relay
        ? [{ name: "pi_host_relay", environment: HANDSHAKE_ENV, contract: HANDSHAKE_VALUE, satisfied: handshakePresent(invocation.env) }]
        : [],
      projections: ["workspace", "staged"],
      schemas: {
        reviewer: "https://gentle-ai.dev/schema/review/reviewer/v1",
        verification_evidence: "https://gentle-ai.dev/schema/review/verification-evidence/v1",
        validator: "https://gentle-ai.dev/schema/review/validator/v1",
        refuter: "https://gentle-ai.dev/schema/review/refuter/v1",
      },
      features: relay ? ["review.opaque_repository_context", "review.native_result_artifact", PI_TRANSPORT] : ["review.opaque_repository_context", "review.native_result_artifact"],
      bootstrap: { required: false },
      compatibility: { minimum_contract: CONTRACT_V1, maximum_contract: CONTRACT_V2 },
    }),
  );
}

/** review capabilities: negotiated with or without --contract (failure/v1 unless --contract names v2). */
export function capabilities(invocation: Invocation): Promise<Outcome> {
  const traits = traitsOf(invocation.scenario.profile);
  const argv = invocation.argv.slice(2);
  const route: Route = {
    class: "negotiated",
    operation: "review.capabilities",
    version: contractOf(argv) === CONTRACT_V2 ? 2 : 1,
    lineageId: safeScanLineage(argv, scanFlagsOf(FLAGS)),
  };
  return runRouted(route, (out) => body(invocation, traits, argv, out));
}
