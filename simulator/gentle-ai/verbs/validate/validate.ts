// review validate. fb55ef7b (profile 2.5.0; cli/review_facade.go runReviewFacadeValidateNonDeciding :3310,
// runNonDecidingReviewGate): the delivery gates no longer decide. VALIDATE resolves the repository only to read the
// kill switch and reports the repository policy that governs delivery: `disabled/unmanaged` while reviews are off,
// `unmanaged` while they are on; it never approves (`allowed: false`) and never vetoes (exit 0). 301fb2ad (profiles
// 2.4.0 and 2.3.0; runReviewFacadeValidate :3535): the gate decides from the review receipt (validate-gate.ts), with
// its own flag texts.
import { resolve } from "node:path";
import type { Invocation, Outcome } from "../../invocation.ts";
import type { FlagSetSpec } from "../../../go/flag-spec.ts";
import { scanFlagsOf } from "../../../go/go-flags.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import { routeFor, runRouted } from "../../route.ts";
import { invalidRequest, nativeError } from "../../refusal.ts";
import { traitsOf } from "../../profiles.ts";
import { repositoryRefusal } from "../../repository-scope.ts";
import type { DecidedGateResult, UnmanagedGateResult } from "../../../contract/gate-result.ts";
import { DISABLED_REASON, ENABLED_REASON } from "./gate-reasons.ts";
import { CONTRACT_V2 } from "../../../output/envelope.ts";
import { encodeReviewJson, type GoJson } from "../../../go/go-json.ts";
import { contractFlag, parseVerbFlags } from "../shared/verb-flags.ts";
import { RepositoryNotFoundError, resolveRepository } from "../../../repository/locate.ts";
import { ModeError, modeStatus } from "../../../repository/review-mode.ts";

const GATES = ["post-apply", "pre-commit", "pre-push", "pre-pr", "release"] as const;
type Gate = (typeof GATES)[number];

/** fb55ef7b's flags: the historical selectors are accepted and ignored. */
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
    {
      name: "release-publication-boundary",
      kind: "string",
      usage: "accepted historical sealed publication boundary artifact",
    },
    {
      name: "release-evidence-freshness",
      kind: "string",
      usage: "accepted historical current release evidence artifact",
    },
  ],
};

/** 301fb2ad's flags (review_facade.go:3539-3551), in the deciding gate's words. */
export const DECIDING_VALIDATE_FLAG_SET: FlagSetSpec = {
  name: "review validate",
  details: "Auto-discover authoritative review state and receipt, then validate them against live Git evidence.",
  flags: [
    { name: "cwd", kind: "string", default: ".", usage: "repository path" },
    { name: "contract", kind: "string", usage: "optional negotiated review integration contract" },
    { name: "lineage", kind: "string", usage: "optional lineage override when discovery is ambiguous" },
    { name: "gate", kind: "string", usage: "lifecycle gate: post-apply, pre-commit, pre-push, pre-pr, or release" },
    { name: "base-ref", kind: "string", usage: "optional expected remote publication base for pre-pr" },
    {
      name: "pre-pr-ci-attestation",
      kind: "string",
      usage: "signed exact-merged-tree CI attestation for a compatible base advance",
    },
    { name: "policy", kind: "string", usage: "explicit custom policy containing compatible-base CI trust" },
    { name: "release-configuration", kind: "string", usage: "release configuration artifact" },
    { name: "release-generated", kind: "string", usage: "generated artifact manifest" },
    { name: "release-provenance", kind: "string", usage: "release provenance artifact" },
    { name: "release-publication-boundary", kind: "string", usage: "sealed publication boundary artifact" },
    { name: "release-evidence-freshness", kind: "string", usage: "current release evidence freshness artifact" },
  ],
};

/** reviewUnmanagedGateResult (gentle-ai.review-gate-result/v1), in Go field order. */
export function unmanagedGateResult(gate: Gate, disabled: boolean): UnmanagedGateResult {
  return {
    schema: "gentle-ai.review-gate-result/v1",
    result: "invalidated",
    allowed: false,
    action: "repository-policy",
    reason: disabled ? DISABLED_REASON : ENABLED_REASON,
    context: { gate },
    delivery: disabled ? "disabled/unmanaged" : "unmanaged",
  } satisfies UnmanagedGateResult;
}

/** validateReviewTransitionSelectorFlagCounts (before the FlagSet): --base-ref may be given once. */
function refuseRepeatedBaseRef(spec: FlagSetSpec, argv: readonly string[]): void {
  let baseRefs = 0;
  for (let i = 0; i < argv.length; i++) {
    const t = argv[i]!;
    if (t === "--" || t === "" || t === "-" || t[0] !== "-") break;
    const name = t.replace(/^--?/, "").split("=")[0]!;
    if (name === "base-ref") baseRefs++;
    if (spec.flags.some((f) => f.name === name && f.kind !== "bool") && !t.includes("=")) i++;
  }
  if (baseRefs > 1) throw invalidRequest("review validate repeats --base-ref");
}

/** The non-deciding gate (runNonDecidingReviewGate): the kill switch decides which unmanaged report. */
function nonDeciding(invocation: Invocation, cwd: string, gate: Gate): UnmanagedGateResult {
  let disabled: boolean;
  try {
    const repo = resolveRepository(resolve(invocation.cwd, cwd));
    // An unreadable switch is not a disabled switch: it fails closed to enabled (reviewDrivenDevelopmentDisabled).
    disabled = modeStatus(repo, invocation.env).effective !== "on";
  } catch (error) {
    if (error instanceof ModeError) disabled = false;
    // fmt.Errorf("resolve review repository root: %w"): a bare error (negotiated: the read-only catch-all).
    else if (error instanceof RepositoryNotFoundError) throw repositoryRefusal(error);
    else throw error;
  }
  return unmanagedGateResult(gate, disabled);
}

/** The gate result, wrapped in operation/v1 or v2 when negotiated. */
function printed(contract: string | undefined, result: UnmanagedGateResult | DecidedGateResult): Buffer {
  if (contract === undefined) return encodeReviewJson(result as GoJson);
  const operation =
    contract === CONTRACT_V2
      ? "gentle-ai.review-integration.operation/v2"
      : "gentle-ai.review-integration.operation/v1";
  return encodeReviewJson({ schema: operation, contract, operation: "review.validate", result } as GoJson);
}

/** `gentle-ai review validate …`: plain prints the gate result, negotiated wraps it in operation/v1 or v2. */
export function validate(invocation: Invocation): Promise<Outcome> {
  const argv = invocation.argv.slice(2);
  const deciding = traitsOf(invocation.scenario.profile).decidingGates;
  const spec = deciding ? DECIDING_VALIDATE_FLAG_SET : VALIDATE_FLAG_SET;
  return runRouted(routeFor(argv, "validate", "negotiable", scanFlagsOf(spec)), async (out) => {
    refuseRepeatedBaseRef(spec, argv);
    const f = parseVerbFlags(spec, argv, out);
    if (f === undefined) return;
    if (f.positionals.length > 0)
      throw invalidRequest(`unexpected review validate argument ${goQuoteStr(f.positionals[0]!)}`);
    const contract = contractFlag(f);
    const gate = f.str("gate");
    const refusal = `review validate requires --gate: one of ${GATES.join(", ")}`;
    // 301fb2ad refuses a missing gate with a bare error (the read-only catch-all when negotiated), an unknown one as
    // preflight.
    if (deciding && gate.trim() === "") throw nativeError(refusal);
    if (gate.trim() === "" || !(GATES as readonly string[]).includes(gate)) throw invalidRequest(refusal);
    if (!deciding) return out.write(printed(contract, nonDeciding(invocation, f.str("cwd"), gate as Gate)));
    const { decideGate, discoveryDenial, discoveryRefusal } = await import("./validate-gate.ts");
    const decision = await decideGate(invocation, { cwd: f.str("cwd"), gate: gate as Gate, lineage: f.str("lineage") });
    if (decision.kind === "result") return out.write(printed(contract, decision.result));
    if (contract === undefined) out.write(printed(undefined, discoveryDenial(gate as Gate, decision.code)));
    throw discoveryRefusal(decision.code, contract !== undefined);
  });
}
