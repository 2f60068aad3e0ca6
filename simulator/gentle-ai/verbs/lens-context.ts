// review lens-context (provider reference §7.3): prints the same bytes as `capture-result --materialize` for a lens.
// Plain route (not a capture verb, not negotiated); the flag set beyond --repository-context/--lens and the
// refusal texts are (inferred).
import type { Invocation, Outcome } from "../invocation.ts";
import type { FlagSetSpec } from "../argv/go-flags.ts";
import { scanFlagsOf } from "../argv/go-flags.ts";
import { routeFor, runRouted } from "../route.ts";
import type { StdoutBuffer } from "../route.ts";
import { invalidRequest, repositoryContextUnavailable } from "../refusal.ts";
import { identitiesFor } from "../../state/identities.ts";
import { readLineage } from "../../state/lineage-store.ts";
import type { Lens } from "../../scenario/lineage-spec.ts";
import { materializePrompt } from "./materialize.ts";
import { parseVerbFlags } from "./verb-flags.ts";

const FLAGS: FlagSetSpec = {
  name: "review lens-context",
  details: "Print the exact Go-materialized lens context for one selected lens of the reviewing authority.",
  flags: [
    { name: "cwd", kind: "string", default: ".", usage: "repository path" },
    { name: "lens", kind: "string", usage: "exact selected lens" },
    { name: "repository-context", kind: "string", usage: "opaque provider-issued repository context" },
  ],
};

function body(invocation: Invocation, argv: readonly string[], out: StdoutBuffer): void {
  const f = parseVerbFlags(FLAGS, argv, out);
  if (f === undefined) return;
  const handle = f.str("repository-context");
  const lensName = f.str("lens");
  if (f.positionals.length > 0 || handle === "" || lensName === "")
    throw invalidRequest("review lens-context requires --repository-context and --lens");
  const ids = identitiesFor(invocation.scenario.lineage.seed);
  if (handle !== ids.repositoryContext)
    throw repositoryContextUnavailable();
  const lineage = readLineage(invocation.stateDir, invocation.scenario);
  const order = (lineage.lenses as readonly string[]).indexOf(lensName);
  if (lineage.state !== "reviewing" || order < 0)
    throw invalidRequest(`review lens-context lens ${JSON.stringify(lensName)} is not a selected lens of the reviewing authority`);
  const lens = lensName as Lens;
  out.write(
    materializePrompt(ids, {
      lineage: ids.lineageId,
      target: ids.targetIdentity,
      lens,
      order,
      revision: ids.revision(lineage.revisionIndex),
      repositoryContext: ids.repositoryContext,
      subjectHash: ids.subjectHash(lens),
    }),
  );
}

/** review lens-context (v2.4.0+). */
export function lensContext(invocation: Invocation): Promise<Outcome> {
  const argv = invocation.argv.slice(2);
  return runRouted(routeFor(argv, "lens-context", "plain", scanFlagsOf(FLAGS)), (out) => body(invocation, argv, out));
}
