// review status (review_facade.go:821-1320): flags, the route, the negotiated document, the plain answers.
import type { Invocation, Outcome } from "../invocation.ts";
import { goQuoteStr, scanFlagsOf } from "../argv/go-flags.ts";
import { traitsOf } from "../profiles.ts";
import type { ProfileTraits } from "../profiles.ts";
import { routeFor, runRouted } from "../route.ts";
import type { StdoutBuffer } from "../route.ts";
import { invalidRequest, nativeError } from "../refusal.ts";
import { encodeReviewJson } from "../../output/go-json.ts";
import type { GoJson } from "../../output/go-json.ts";
import { untrackedInventoryDigest } from "../../state/identities.ts";
import { contractFlag, parseVerbFlags } from "./verb-flags.ts";
import { negotiatedRequest, plainRefusal, singleValueFlagError, STATUS_FLAG_SET, untrackedDeclared } from "./status-flags.ts";
import type { UntrackedFlags } from "./status-flags.ts";
import { ReadOnlyFailure, renderStatus } from "./status-document.ts";
import type { StatusRenderRequest } from "./status-document.ts";
import { modernCorrection } from "./status-correction.ts";
import { scenarioStatusFacts } from "./status-facts.ts";
import type { StatusFacts } from "./status-model.ts";

/**
 * reviewIntendedUntrackedScopeForTarget (review_intended_untracked.go:47): an undeclared scope over an empty
 * inventory needs nothing; a declaration must be complete, consistent and match the current inventory.
 */
function intendedUntracked(facts: StatusFacts, u: UntrackedFlags): StatusRenderRequest["intendedUntracked"] {
  const inventory = facts.untrackedInventory;
  const digest = untrackedInventoryDigest(inventory);
  // (inferred) a non-empty inventory without a declaration asks for a selection; the synthetic repository has none.
  if (!untrackedDeclared(u)) return { declared: false, intended: [], digest };
  if (u.mode === undefined || u.digest === undefined)
    throw invalidRequest("untracked selection requires --untracked-scope and --expected-untracked-inventory; rerun `gentle-ai review status --next-transition`");
  if (u.mode === "exclude" && u.selected.length !== 0)
    throw invalidRequest("--untracked-scope=exclude does not accept --intended-untracked; rerun `gentle-ai review start --untracked-scope=select`");
  if (u.mode === "select" && u.selected.length === 0)
    throw invalidRequest("--untracked-scope=select requires at least one --intended-untracked; rerun `gentle-ai review start --untracked-scope=exclude`");
  if (u.mode !== "exclude" && u.mode !== "select")
    throw invalidRequest(`--untracked-scope must be exclude or select, got ${goQuoteStr(u.mode)}; rerun \`gentle-ai review status --next-transition\``);
  if (u.digest !== digest) throw invalidRequest("untracked inventory changed; rerun `gentle-ai review status --next-transition` before selecting paths");
  // (inferred) canonicalPaths' own refusals of malformed paths are not reproduced: every path is checked for eligibility.
  const selected = [...new Set(u.selected)].sort();
  for (const p of selected)
    if (!inventory.includes(p))
      throw invalidRequest(`intended-untracked path ${goQuoteStr(p)} is not in the current eligible inventory; rerun \`gentle-ai review status --next-transition\``);
  return { declared: true, intended: selected, digest: u.digest };
}

async function body(invocation: Invocation, traits: ProfileTraits, argv: readonly string[], out: StdoutBuffer): Promise<void> {
  const f = parseVerbFlags(STATUS_FLAG_SET, argv, out);
  if (f === undefined) return;
  const once = singleValueFlagError(f);
  if (once !== undefined) {
    out.write(once.output);
    throw invalidRequest(once.message);
  }
  if (f.positionals.length > 0) throw invalidRequest(`unexpected review status argument ${goQuoteStr(f.positionals[0]!)}`);
  const contract = contractFlag(f);
  if (contract === undefined) {
    const refusal = plainRefusal(f);
    if (refusal !== undefined) throw invalidRequest(refusal);
    // The plain answer is gentle-ai.review-authority-status/v1, an inventory of the real authority store.
    throw invalidRequest("gentle-ai-sim: review status without --contract (the authority inventory) is not simulated");
  }
  const req = negotiatedRequest(f, argv, contract, traits, invocation.env);
  const facts = scenarioStatusFacts(invocation, req.cwd);
  const untracked = intendedUntracked(facts, req.untracked);
  // (inferred) the synthetic repository resolves no base reference or tree, so freezing such a target fails.
  if (req.baseSelector) throw new ReadOnlyFailure("freeze negotiated review target: the simulated repository resolves no base selector");
  const doc = renderStatus(facts, { ...req, intendedUntracked: untracked, legacyCorrection: !modernCorrection(traits) });
  out.write(encodeReviewJson(doc as GoJson));
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
      // An untyped native failure: the read-only catch-all on a negotiated route (review_operation_contract.go:1129-1142).
      if (error instanceof ReadOnlyFailure) throw nativeError(error.message);
      throw error;
    }
  });
}
