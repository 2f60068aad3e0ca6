// What FINALIZE concludes from the captured reviewer results of a repository lineage (review_facade.go:3423-3490
// prepareCompactReviewerResults, reviewtransaction/compact.go:1290-1381): severe findings are classified by their
// evidence class and causality; corroborated deterministic findings become the correction's fix findings, an
// insufficient or unknown one escalates, and a candidate without any asks for final verification (validating).
import type { Identities } from "../../../state/identities.ts";
import type { FixFinding, LineageState } from "../../../state/lineage-state.ts";
import { invalidRequest } from "../../refusal.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import { parseFindingLocation, supportsCausality } from "../capture-result/admission-scope.ts";
import { isSevere } from "../capture-result/lens-result.ts";

/** The lifecycle outcome of the captured results. */
export type CapturedVerdict =
  | { readonly state: "correction_required"; readonly fixFindings: readonly FixFinding[] }
  | { readonly state: "validating" };

/** One canonical finding as the slot's canonical result marshals it (every member but id omitempty). */
interface CanonicalFinding {
  readonly id: string;
  readonly lens?: string;
  readonly location?: string;
  readonly severity?: string;
  readonly claim?: string;
  readonly proof_refs?: readonly string[];
  readonly evidence_class?: string;
  readonly causal_disposition?: string;
}

/** The findings of every captured slot, in selected-lens order (readCapturedReviewerResults). */
function capturedFindings(lineage: LineageState): CanonicalFinding[] {
  return lineage.lenses.flatMap((lens) => {
    const slot = lineage.captured[lens];
    if (slot === undefined) return [];
    const result = JSON.parse(Buffer.from(slot.canonicalBase64, "base64").toString("utf8")) as {
      findings?: CanonicalFinding[];
    };
    return result.findings ?? [];
  });
}

const CANDIDATE_CAUSED = new Set(["introduced", "behavior-activated", "worsened"]);

/** Classifies the captured results as FinalizeCompactReview does, for a lineage without refuter outcomes. */
export function capturedVerdict(lineage: LineageState, ids: Identities): CapturedVerdict {
  const fixes: FixFinding[] = [];
  for (const f of capturedFindings(lineage)) {
    if (!isSevere(f.severity ?? "")) continue;
    let causality = f.causal_disposition ?? "";
    if (CANDIDATE_CAUSED.has(causality)) {
      // CandidateLocationSupportsCausality, then findingLocationInGenesis: an unsupported location is unknown.
      const location = parseFindingLocation(f.location ?? "");
      if (
        "reason" in location ||
        !supportsCausality(ids.manifest, location, causality) ||
        !ids.paths.includes(location.path)
      )
        causality = "unknown";
    }
    if (causality === "pre-existing" || causality === "base-only") continue; // an informational follow-up
    // (not simulated) an escalated authority: the simulated lineage has no escalated state.
    if (f.evidence_class === "insufficient" || causality === "unknown")
      throw invalidRequest(`gentle-ai-sim: finding ${goQuoteStr(f.id)} escalates the review, which is not simulated`);
    // The refuter role is not offered to repository lineages, so an inferential finding has no outcome to apply.
    if (f.evidence_class === "inferential")
      throw invalidRequest(`inferential finding ${goQuoteStr(f.id)} requires one refuter outcome`);
    fixes.push({
      id: f.id,
      lens: f.lens ?? "",
      location: f.location ?? "",
      severity: f.severity ?? "",
      claim: f.claim ?? "",
      proof_refs: [...(f.proof_refs ?? [])],
      evidence_class: f.evidence_class ?? "",
      causal_disposition: causality,
    });
  }
  fixes.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  return fixes.length === 0 ? { state: "validating" } : { state: "correction_required", fixFindings: fixes };
}
