// review status (review_facade.go:821-1320): flags, the route, the negotiated document, the plain answers.
import type { Invocation, Outcome } from "../../invocation.ts";
import { scanFlagsOf } from "../../../go/go-flags.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import { traitsOf } from "../../profiles.ts";
import type { ProfileTraits } from "../../profiles.ts";
import { routeFor, runRouted } from "../../route.ts";
import type { StdoutBuffer } from "../../route.ts";
import { invalidRequest, nativeError } from "../../refusal.ts";
import { encodeReviewJson } from "../../../go/go-json.ts";
import type { GoJson } from "../../../go/go-json.ts";
import { resolve } from "node:path";
import { untrackedInventoryDigest } from "../../../state/identities.ts";
import { untrackedScopeFor, UntrackedSelectionError } from "../../../repository/untracked.ts";
import type { UntrackedScope } from "../../../repository/untracked.ts";
import { repositoryScopeAt, requireCwd, scopeAt } from "../../repository-scope.ts";
import { contractFlag, parseVerbFlags } from "../shared/verb-flags.ts";
import { negotiatedRequest, plainRefusal, STATUS_FLAG_SET } from "./status-flags.ts";
import type { NegotiatedStatusRequest } from "./status-flags.ts";
import { ReadOnlyFailure, renderStatus } from "./status-document.ts";
import { modernCorrection } from "./status-correction.ts";
import { scenarioStatusFacts } from "./status-facts.ts";
import type { StatusFacts } from "./status-model.ts";

/**
 * The intended-untracked scope of the target (review_facade.go:919-927): none for a staged projection (whose
 * declaration negotiatedRequest already refused), otherwise the declaration checked against the inventory.
 */
function intendedUntracked(facts: StatusFacts, req: NegotiatedStatusRequest): UntrackedScope {
  const paths = facts.untrackedInventory;
  const digest = untrackedInventoryDigest(paths);
  if (req.projection === "staged")
    return { inventory: paths, intended: [], digest, needsSelection: false, declared: false };
  const u = req.untracked;
  try {
    return untrackedScopeFor({ paths, digest }, { scope: u.mode, intended: u.selected, expectedInventory: u.digest });
  } catch (error) {
    if (error instanceof UntrackedSelectionError) throw invalidRequest(error.message);
    throw error;
  }
}

async function body(
  invocation: Invocation,
  traits: ProfileTraits,
  argv: readonly string[],
  out: StdoutBuffer,
): Promise<void> {
  const f = parseVerbFlags(STATUS_FLAG_SET, argv, out);
  if (f === undefined) return;
  if (f.positionals.length > 0)
    throw invalidRequest(`unexpected review status argument ${goQuoteStr(f.positionals[0]!)}`);
  const contract = contractFlag(f);
  if (contract === undefined) {
    const refusal = plainRefusal(f);
    if (refusal !== undefined) throw invalidRequest(refusal);
    // The plain answer is gentle-ai.review-authority-status/v1, an inventory of the authority store: the repository
    // world's lineages; the seeded world has no store to list.
    requireCwd(f.str("cwd"));
    if (invocation.lineagePinned !== false)
      throw invalidRequest(
        "gentle-ai-sim: review status without --contract (the authority inventory) is not simulated",
      );
    const { authorityInventory } = await import("./status-inventory.ts");
    out.write(
      encodeReviewJson(
        authorityInventory(invocation, repositoryScopeAt(invocation, resolve(invocation.cwd, f.str("cwd")))),
      ),
    );
    return;
  }
  const req = negotiatedRequest(f, argv, contract, traits, invocation.env);
  // SnapshotBuilder.ResolveRepositoryRoot refuses a blank --cwd before anything is read (review_facade.go:909-913).
  if (req.cwd.trim() === "")
    throw new ReadOnlyFailure("resolve negotiated review repository root: snapshot repository path is required");
  // (inferred scope limit) the base-workspace-overlay target is not simulated.
  if (req.workspaceOverlay)
    throw new ReadOnlyFailure(
      "freeze negotiated review target: gentle-ai-sim does not simulate the base-workspace-overlay target",
    );
  // A scenario that pins no lineage lets the Git repository at --cwd decide what exists, as the real binary does.
  const scope = invocation.lineagePinned === false ? scopeAt(invocation, resolve(invocation.cwd, req.cwd)) : undefined;
  const render = (facts: StatusFacts): void => {
    const untracked = intendedUntracked(facts, req);
    const doc = renderStatus(facts, {
      ...req,
      intendedUntracked: untracked,
      legacyCorrection: !modernCorrection(traits),
      atomicStart: traits.atomicStart,
      correctionContextReference: traits.correctionContextReference,
      approvalBurns: traits.approvalBurns,
    });
    out.write(encodeReviewJson(doc as GoJson));
  };
  if (scope === undefined) return render(scenarioStatusFacts(invocation, req.cwd));
  const { repositoryStatusFacts } = await import("./status-repository-facts.ts");
  render(repositoryStatusFacts(invocation, scope));
}

/** review status: negotiated with --contract (status/v5 or status/v2), plain otherwise. */
export async function status(invocation: Invocation): Promise<Outcome> {
  const traits = traitsOf(invocation.scenario.profile);
  const argv = invocation.argv.slice(2);
  const route = routeFor(argv, "status", "negotiable", scanFlagsOf(STATUS_FLAG_SET));
  return runRouted(route, async (out) => {
    try {
      await body(invocation, traits, argv, out);
    } catch (error) {
      // An untyped native failure: the read-only catch-all on a negotiated route
      // (review_operation_contract.go:1129-1142).
      if (error instanceof ReadOnlyFailure) throw nativeError(error.message);
      throw error;
    }
  });
}
