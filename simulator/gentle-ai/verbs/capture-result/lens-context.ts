// review lens-context (internal/cli/review_lens_context.go RunReviewLensContext at fb55ef7b): the same bytes as
// `capture-result --materialize` for one selected lens, from the two opaque tokens the collect transition carries.
// Plain route (not a capture verb, not negotiated).
import type { Invocation, Outcome } from "../../invocation.ts";
import type { FlagSetSpec } from "../../../go/flag-spec.ts";
import { scanFlagsOf } from "../../../go/go-flags.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import { routeFor, runRouted } from "../../route.ts";
import type { StdoutBuffer } from "../../route.ts";
import { invalidRequest, opaqueContextRefusal } from "../../refusal.ts";
import { resolveContextHandle } from "../../gates/repository-context.ts";
import { authorityOf } from "../shared/correction-authority.ts";
import type { ReviewRefusal } from "../../refusal.ts";
import { identitiesFor } from "../../../state/identities.ts";
import { readLineage } from "../../lineage.ts";
import type { Lens } from "../../../scenario/lineage-spec.ts";
import { materializePrompt } from "./materialize.ts";
import { goTrimSpace } from "./lens-result.ts";
import { parseVerbFlags } from "../shared/verb-flags.ts";

const FLAGS: FlagSetSpec = {
  name: "review lens-context",
  details:
    "Emit the finished reviewer lens context for one selected lens.\n\nForm: --repository-context <handle> --lens <lens> [--delivery provider_command|runtime_interception]\n\nBoth tokens are carried verbatim by the collect transition; nothing else is accepted, and nothing is left for the caller to assemble.",
  flags: [
    {
      name: "delivery",
      kind: "string",
      default: "provider_command",
      usage:
        "how this context reaches the reviewer: provider_command when a caller relays it, runtime_interception when a runtime adapter injects it",
    },
    { name: "lens", kind: "string", usage: "exact selected lens" },
    { name: "repository-context", kind: "string", usage: "opaque provider-issued repository context" },
  ],
};

const STATUS_HINT = "gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition";
const REFRESH_ACTION = `ask the parent orchestrator to refresh the exact native next transition by running ${STATUS_HINT}, then run this operation again with the tokens it returns`;

/** reviewLensContextRefusal: a typed, path-free refusal whose code is the first token. */
function lensContextRefusal(code: string): ReviewRefusal {
  return invalidRequest(`${code}: provider-owned reviewer lens context was not produced; ${REFRESH_ACTION}`);
}

function body(invocation: Invocation, argv: readonly string[], out: StdoutBuffer): void {
  const f = parseVerbFlags(FLAGS, argv, out);
  if (f === undefined) return;
  const handle = goTrimSpace(f.str("repository-context"));
  const lensName = goTrimSpace(f.str("lens"));
  if (f.positionals.length > 0 || handle === "" || lensName === "")
    throw invalidRequest(
      "review lens-context requires the exact provider-issued repository context and lens carried by the collect transition; run `gentle-ai review lens-context --help` for the closed command form",
    );
  const delivery = goTrimSpace(f.str("delivery"));
  if (delivery === "provider_contract")
    throw invalidRequest(
      "review lens-context delivery provider_contract is reserved for Go-owned provider execution and cannot be declared by callers",
    );
  if (delivery !== "provider_command" && delivery !== "runtime_interception")
    throw invalidRequest(
      `unknown reviewer context delivery ${goQuoteStr(f.str("delivery"))}; run \`gentle-ai review lens-context --help\` for the closed command form`,
    );
  const ids = identitiesFor(invocation.scenario.lineage.seed, invocation.identitySource);
  const lineage = readLineage(invocation.stateDir, invocation.scenario, invocation.identitySource);
  resolveContextHandle(authorityOf(invocation.scenario, lineage, invocation.identitySource), handle);
  // (inferred) reviewer context is produced only for a reviewing authority; a handle that resolves past reviewing
  // is treated as stale, as validateReviewRepositoryContextRecord treats one without a live reviewing target.
  if (lineage.state !== "reviewing")
    throw opaqueContextRefusal(
      "repository_context_unavailable",
      "review repository context is stale or has no live matching authority",
    );
  const order = (lineage.lenses as readonly string[]).indexOf(lensName);
  if (order < 0) throw lensContextRefusal("lens_context_lens_not_selected");
  const lens = lensName as Lens;
  // The emission audit note (lens_context_emission.go) has no observable effect in the simulator.
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

/** review lens-context. */
export function lensContext(invocation: Invocation): Promise<Outcome> {
  const argv = invocation.argv.slice(2);
  return runRouted(routeFor(argv, "lens-context", "plain", scanFlagsOf(FLAGS)), (out) => body(invocation, argv, out));
}
