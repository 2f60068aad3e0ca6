// review validate (cli/review_facade.go runReviewFacadeValidateNonDeciding, runNonDecidingReviewGate): the delivery
// gates no longer decide. VALIDATE resolves the repository only to read the kill switch and reports the repository
// policy that governs delivery: `disabled/unmanaged` while reviews are off, `unmanaged` while they are on. It never
// approves (`allowed: false`, result `invalidated`) and never vetoes (exit 0).
import { resolve } from "node:path";
import type { Invocation, Outcome } from "../invocation.ts";
import type { FlagSetSpec } from "../argv/flag-spec.ts";
import { scanFlagsOf } from "../argv/go-flags.ts";
import { goQuoteStr } from "../argv/go-quote.ts";
import { routeFor, runRouted } from "../route.ts";
import { invalidRequest } from "../refusal.ts";
import { CONTRACT_V2 } from "../../output/envelope.ts";
import { encodeReviewJson, type GoJson } from "../../output/go-json.ts";
import { contractFlag, parseVerbFlags } from "./verb-flags.ts";
import { RepositoryNotFoundError, resolveRepository } from "../../repository/locate.ts";
import { ModeError, modeStatus } from "../../repository/review-mode.ts";

const GATES = ["post-apply", "pre-commit", "pre-push", "pre-pr", "release"] as const;

export const VALIDATE_FLAG_SET: FlagSetSpec = {
  name: "review validate",
  details: "Validate delivery-gate syntax and report the repository policy that governs delivery.",
  flags: [
    { name: "cwd", kind: "string", default: ".", usage: "repository path" },
    { name: "contract", kind: "string", usage: "optional negotiated review integration contract" },
    { name: "lineage", kind: "string", usage: "accepted historical lineage selector; gates do not read authority" },
    { name: "gate", kind: "string", usage: "lifecycle gate: post-apply, pre-commit, pre-push, pre-pr, or release" },
    { name: "base-ref", kind: "string", usage: "accepted historical pre-pr publication base" },
    { name: "pre-pr-ci-attestation", kind: "string", usage: "accepted historical pre-pr CI attestation" },
    { name: "policy", kind: "string", usage: "accepted historical policy artifact" },
    { name: "release-configuration", kind: "string", usage: "accepted historical release configuration artifact" },
    { name: "release-generated", kind: "string", usage: "accepted historical generated artifact manifest" },
    { name: "release-provenance", kind: "string", usage: "accepted historical release provenance artifact" },
    { name: "release-publication-boundary", kind: "string", usage: "accepted historical sealed publication boundary artifact" },
    { name: "release-evidence-freshness", kind: "string", usage: "accepted historical current release evidence artifact" },
  ],
};

const DISABLED_REASON = "receipt-driven development is disabled and no receipt governs this candidate, so delivery follows ordinary repository policy";
const ENABLED_REASON = "review enforcement is enabled but no review authority governs this candidate, so delivery follows ordinary repository policy";

/** reviewUnmanagedGateResult (gentle-ai.review-gate-result/v1), in Go field order. */
export function unmanagedGateResult(gate: string, disabled: boolean): GoJson {
  return {
    schema: "gentle-ai.review-gate-result/v1",
    result: "invalidated",
    allowed: false,
    action: "repository-policy",
    reason: disabled ? DISABLED_REASON : ENABLED_REASON,
    context: { gate },
    delivery: disabled ? "disabled/unmanaged" : "unmanaged",
  };
}

/** `gentle-ai review validate …`: plain prints the gate result, negotiated wraps it in operation/v1 or v2. */
export function validate(invocation: Invocation): Promise<Outcome> {
  const argv = invocation.argv.slice(2);
  return runRouted(routeFor(argv, "validate", "negotiable", scanFlagsOf(VALIDATE_FLAG_SET)), (out) => {
    // validateReviewTransitionSelectorFlagCounts runs before the FlagSet.
    let baseRefs = 0;
    for (let i = 0; i < argv.length; i++) {
      const t = argv[i]!;
      if (t === "--" || t === "" || t === "-" || t[0] !== "-") break;
      const name = t.replace(/^--?/, "").split("=")[0]!;
      if (name === "base-ref") baseRefs++;
      if (VALIDATE_FLAG_SET.flags.some((f) => f.name === name && f.kind !== "bool") && !t.includes("=")) i++;
    }
    if (baseRefs > 1) throw invalidRequest("review validate repeats --base-ref");
    const f = parseVerbFlags(VALIDATE_FLAG_SET, argv, out);
    if (f === undefined) return;
    if (f.positionals.length > 0) throw invalidRequest(`unexpected review validate argument ${goQuoteStr(f.positionals[0]!)}`);
    const contract = contractFlag(f);
    const gate = f.str("gate").trim();
    if (gate === "" || !(GATES as readonly string[]).includes(f.str("gate"))) throw invalidRequest(`review validate requires --gate: one of ${GATES.join(", ")}`);
    let disabled: boolean;
    try {
      const repo = resolveRepository(resolve(invocation.cwd, f.str("cwd")));
      // An unreadable switch is not a disabled switch: it fails closed to enabled (reviewDrivenDevelopmentDisabled).
      disabled = modeStatus(repo, invocation.env).effective !== "on";
    } catch (error) {
      if (error instanceof ModeError) disabled = false;
      else if (error instanceof RepositoryNotFoundError) throw invalidRequest(error.message);
      else throw error;
    }
    const result = unmanagedGateResult(f.str("gate"), disabled);
    if (contract === undefined) out.write(encodeReviewJson(result));
    else
      out.write(
        encodeReviewJson({
          schema: contract === CONTRACT_V2 ? "gentle-ai.review-integration.operation/v2" : "gentle-ai.review-integration.operation/v1",
          contract,
          operation: "review.validate",
          result,
        }),
      );
  });
}
