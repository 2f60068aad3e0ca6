// `review status` flags (review_facade.go:822-847) and the request checks runReviewStatus makes before it reads
// anything (review_facade.go:848-937), in Go's order.
import type { ParsedFlags } from "../../../go/go-flags.ts";
import type { FlagDef, FlagSetSpec } from "../../../go/flag-spec.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import { requireRuntime } from "../../gates/handshake.ts";
import type { ProfileTraits } from "../../profiles.ts";
import { invalidRequest, ReviewRefusal } from "../../refusal.ts";
import { CONTRACT_V1, CONTRACT_V2 } from "../../../output/envelope.ts";
import { ReadOnlyFailure } from "./status-document.ts";
import type { StatusRenderRequest } from "./status-document.ts";

/**
 * reviewSingleValueFlag.Set's refusal of a second value (review_intended_untracked.go:29-35, the same in every verb).
 */
export const UNTRACKED_SET_ONCE =
  "untracked scope flags may only be specified once; rerun gentle-ai review start with one declaration";

const STATUS_FLAGS: readonly FlagDef[] = [
  { name: "cwd", kind: "string", default: ".", usage: "repository path" },
  { name: "contract", kind: "string", usage: "optional negotiated review integration contract" },
  { name: "agent", kind: "string", usage: "generated active runtime identity for negotiated lifecycle routing" },
  {
    name: "action-eligibility",
    kind: "bool",
    usage: "include optional machine-readable review action eligibility in negotiated output",
  },
  {
    name: "next-transition",
    kind: "bool",
    usage: "include the optional canonical native next transition in negotiated output",
  },
  { name: "lineage", kind: "string", usage: "optional explicit lineage selector for negotiated target status" },
  {
    name: "projection",
    kind: "string",
    default: "workspace",
    usage: "negotiated target projection: workspace or staged",
  },
  { name: "base-ref", kind: "string", usage: "optional negotiated immutable base-to-HEAD target" },
  { name: "base-tree", kind: "string", usage: "optional negotiated resolved immutable overlay base tree" },
  { name: "committed-only", kind: "bool", usage: "acknowledge that --base-ref selects committed-only review scope" },
  { name: "workspace-overlay", kind: "bool", usage: "select a negotiated base-ref workspace overlay target" },
  { name: "gate", kind: "string", default: "pre-commit", usage: "lifecycle gate for an approved receipt transition" },
  {
    name: "recovery-successor-lineage",
    kind: "string",
    usage: "authorized successor lineage for a recovery transition",
  },
  { name: "recovery-reason", kind: "string", usage: "authorized recovery reason" },
  { name: "recovery-actor", kind: "string", usage: "authorized recovery actor" },
  { name: "recovery-authorization", kind: "string", usage: "exact authorized recovery binding" },
  { name: "repair-actor", kind: "string", usage: "authorized classified repair actor" },
  { name: "repair-reason", kind: "string", usage: "authorized classified repair reason" },
  { name: "repair-authorization", kind: "string", usage: "exact classified repair authorization binding" },
  // flag.Var flags: reviewSingleValueFlag (set once) and reviewRepeatedPathFlag (repeatable), both default "".
  {
    name: "untracked-scope",
    kind: "string",
    usage: "explicit untracked scope: exclude or select",
    setError: UNTRACKED_SET_ONCE,
  },
  {
    name: "intended-untracked",
    kind: "string",
    usage: "repo-relative untracked path to include; repeat for each path",
  },
  {
    name: "expected-untracked-inventory",
    kind: "string",
    usage: "sha256 inventory digest from review status",
    setError: UNTRACKED_SET_ONCE,
  },
];

export const STATUS_FLAG_SET: FlagSetSpec = {
  name: "review status",
  details:
    "Read every compact-v2 and shipped legacy-v1 authority from the shared Git common directory without mutation.",
  flags: STATUS_FLAGS,
};

/** reviewIntegrationGatesInOrder (review_operation_contract.go:1761). */
const GATES = ["post-apply", "pre-commit", "pre-push", "pre-pr", "release"];

/** reviewRuntimeAgentCount (review_transport_capability.go:198): `--agent` occurrences before `--`. */
export function runtimeAgentCount(args: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") break;
    const nameValue = a.replace(/^-/, "").replace(/^-/, "");
    if (nameValue === a || nameValue === "") continue;
    const eq = nameValue.indexOf("=");
    if ((eq < 0 ? nameValue : nameValue.slice(0, eq)) !== "agent") continue;
    count++;
    if (eq < 0) i++;
  }
  return count;
}

/** The declared intended-untracked selection as parsed (reviewIntendedUntrackedDeclared's inputs). */
export interface UntrackedFlags {
  readonly mode: string | undefined;
  readonly selected: readonly string[];
  readonly digest: string | undefined;
}

/** A negotiated STATUS request after the flag checks: what the renderer reads, plus what resolves its scope. */
export interface NegotiatedStatusRequest extends Omit<
  StatusRenderRequest,
  "intendedUntracked" | "legacyCorrection" | "atomicStart" | "correctionContextReference" | "approvalBurns"
> {
  readonly gate: string;
  readonly untracked: UntrackedFlags;
  readonly cwd: string;
  /** `--workspace-overlay`: the base-workspace-overlay target. */
  readonly workspaceOverlay: boolean;
}

function untrackedFlags(f: ParsedFlags): UntrackedFlags {
  return {
    mode: f.has("untracked-scope") ? f.str("untracked-scope") : undefined,
    selected: f.all("intended-untracked").map(String),
    digest: f.has("expected-untracked-inventory") ? f.str("expected-untracked-inventory") : undefined,
  };
}

/** reviewIntendedUntrackedDeclared. */
export function untrackedDeclared(u: UntrackedFlags): boolean {
  return u.mode !== undefined || u.selected.length !== 0 || u.digest !== undefined;
}

/**
 * The negotiated checks up to the repository read (review_facade.go:858-908): the v2-only runtime identity, the
 * gate, the projection and the base selectors. Plain Go errors here are ReadOnlyFailures (the read-only catch-all).
 */
export function negotiatedRequest(
  f: ParsedFlags,
  args: readonly string[],
  contract: string,
  traits: ProfileTraits,
  env: Readonly<Record<string, string | undefined>>,
): NegotiatedStatusRequest {
  let runtime = "";
  let hostRelay = false;
  // The runtime identity is checked only on the v2 contract (review_facade.go:869); v1 never reads --agent.
  if (contract === CONTRACT_V2 && runtimeAgentCount(args) !== 0) {
    if (runtimeAgentCount(args) !== 1)
      throw new ReviewRefusal(
        "immutable_review_transport_unsupported",
        "negotiated lifecycle STATUS requires exactly one generated runtime identity",
      );
    const admitted = requireRuntime(traits, f.str("agent"), env, "status");
    runtime = admitted.runtime;
    hostRelay = admitted.kind === "host";
  }
  const gate = f.str("gate");
  if (!GATES.includes(gate)) throw new ReadOnlyFailure(`unsupported review lifecycle gate ${goQuoteStr(gate)}`);
  const projection = f.str("projection").trim();
  if (projection !== "workspace" && projection !== "staged")
    throw new ReadOnlyFailure(`unsupported review projection ${goQuoteStr(f.str("projection"))}`);
  const baseRef = f.str("base-ref").trim();
  const baseTree = f.str("base-tree").trim();
  const committedOnly = f.bool("committed-only");
  const overlay = f.bool("workspace-overlay");
  if (committedOnly && (baseRef === "" || overlay))
    throw new ReadOnlyFailure(
      "review status --committed-only requires --base-ref without --workspace-overlay; rerun `gentle-ai review status --base-ref <ref> --committed-only`",
    );
  if (baseRef !== "" && f.has("committed-only") && !committedOnly && !overlay)
    throw new ReadOnlyFailure(
      "review status --base-ref requires --committed-only; rerun `gentle-ai review status --base-ref <ref> --committed-only`",
    );
  const stagedOverlay = overlay && projection === "staged";
  if (overlay && stagedOverlay && (baseRef === "" || baseTree !== ""))
    throw new ReadOnlyFailure("staged --workspace-overlay requires exactly --base-ref");
  if (overlay && !stagedOverlay && ((baseRef === "") === (baseTree === "") || projection !== "workspace"))
    throw new ReadOnlyFailure(
      "--workspace-overlay requires exactly one of --base-ref or --base-tree with workspace projection",
    );
  if (!overlay && baseTree !== "") throw new ReadOnlyFailure("--base-tree requires --workspace-overlay");
  if (baseTree !== "" && !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(baseTree))
    throw new ReadOnlyFailure("--base-tree requires an exact Git tree object ID");
  const untracked = untrackedFlags(f);
  if (projection === "staged" && untrackedDeclared(untracked))
    throw invalidRequest(
      "staged projection does not accept intended-untracked selection; remove those flags and rerun `gentle-ai review status --projection staged`",
    );
  return {
    contract,
    runtime,
    hostRelay,
    actionEligibility: f.bool("action-eligibility"),
    nextTransition: f.bool("next-transition"),
    lineage: f.str("lineage"),
    projection,
    gate,
    recoverySuccessor: f.str("recovery-successor-lineage"),
    untracked,
    cwd: f.str("cwd"),
    baseRef,
    workspaceOverlay: overlay,
  };
}

/**
 * Without --contract (review_facade.go:1305-1310): the negotiated outputs and every target selector require a
 * contract; the plain answer is the authority inventory.
 */
export function plainRefusal(f: ParsedFlags): string | undefined {
  if (f.bool("action-eligibility") || f.bool("next-transition"))
    return `--action-eligibility and --next-transition require --contract ${CONTRACT_V1} or ${CONTRACT_V2}`;
  const selectors =
    f.str("agent").trim() !== "" ||
    f.str("lineage").trim() !== "" ||
    f.str("base-ref").trim() !== "" ||
    f.str("base-tree").trim() !== "" ||
    f.has("committed-only") ||
    f.bool("workspace-overlay") ||
    f.str("projection") !== "workspace" ||
    f.str("gate") !== "pre-commit" ||
    [
      "recovery-successor-lineage",
      "recovery-reason",
      "recovery-actor",
      "recovery-authorization",
      "repair-actor",
      "repair-reason",
      "repair-authorization",
    ].some((n) => f.str(n) !== "") ||
    untrackedDeclared(untrackedFlags(f));
  return selectors ? `review status target selectors require --contract ${CONTRACT_V1}` : undefined;
}
