// Per-profile switches (provider reference §14): one table, read by the verbs.
import type { Profile } from "../scenario/schema.ts";

/** What differs between the simulated gentle-ai releases. */
export interface ProfileTraits {
  /** `gentle-ai version` prints `gentle-ai <version>`. */
  readonly version: string;
  /** capture-result defines --agent and --materialize (v2.4.0+). */
  readonly relayFlags: boolean;
  /** Capture verbs use the collect-capture route (failure/v2 envelope, `[code]` suffix) (v2.4.0+, PR #3359). */
  readonly collectCapture: boolean;
  /** GENTLE_PI_REVIEW_RELAY_CONTRACT makes pi eligible (v2.4.0+); pre-relay builds never admit pi. */
  readonly honoursHandshake: boolean;
  /**
   * Refusal wording for pi without the handshake: v2.4.0 list wording or the PR #3444 wording (at fb55ef7b,
   * review_transport_capability.go:150-175).
   */
  readonly handshakeWording: "v2.4.0" | "pr3444";
  /**
   * START's transport admission sees only claude-code, opencode, codex and pi advertise review transport; every other
   * manifest agent is dormant (fb55ef7b agents/capabilitymanifest/manifest.go). Before it (301fb2ad) every agent with a
   * manifest advertises it.
   */
  readonly dormantTransport: boolean;
  /** Lens submission form in STATUS: none (pre-relay), v2.4.0 singular value at 7, v2.5.0 with --agent=pi at 8. */
  readonly lensSubmission: "none" | "v2.4.0" | "v2.5.0";
  /**
   * capture-result admits `--agent pi --input` and re-checks the handshake on submit. (inferred) From PR #3845,
   * which fb55ef7b does not contain: there review_artifact.go:284 refuses --agent together with --input.
   */
  readonly agentSubmit: boolean;
  /**
   * pi (and opencode) without --materialize: v2.4.0's shared host-mediated text or the #3441 split texts (at fb55ef7b,
   * review_artifact.go:305-324).
   */
  readonly piWithoutMaterialize: "host-mediated" | "split";
  /** capture-refuter / capture-validation exist (v2.4.0+). */
  readonly roleVerbs: boolean;
  /** finalize defines --admission-findings (added in 413d3967, removed by b43e0928: in 301fb2ad, not in fb55ef7b). */
  readonly finalizeAdmissionFindings: boolean;
  /** STATUS schema identifier (2.5.0 keeps status/v5: the v6 shape is unknown). */
  readonly statusSchema: string;
  /**
   * The compact atomic START route (fb55ef7b): a fresh lineage hashes the worktree and target identities
   * (review_start_lineage.go reviewAtomicStartLineage), a repeated START answers `replayed`, a selector-free `status
   * --next-transition` is always the fresh START target. Before it (301fb2ad): the lineage is `review-` + 16 hex of the
   * target identity, a repeated START answers `resumed`, a plain START that selects lenses carries a `hint`, a
   * negotiated START reports its repository-context event, and STATUS names `--lineage` only when the derived name is
   * taken (reviewAvailableStartLineage).
   */
  readonly atomicStart: boolean;
  /**
   * An approving FINALIZE burns the lineage (b43e0928 "make approval terminal and burn lineage", in fb55ef7b, not in
   * 301fb2ad): its action names ordinary repository policy and it prints no receipt_path.
   */
  readonly approvalBurns: boolean;
  /**
   * VALIDATE decides delivery from the review receipt (301fb2ad runReviewFacadeValidate: receipt discovery, then the
   * compact gate evaluation) and an approved authority stays live, its STATUS routing to that gate. fb55ef7b's gates no
   * longer decide (runReviewFacadeValidateNonDeciding).
   */
  readonly decidingGates: boolean;
  /**
   * STATUS of a correction_required or validating authority prints the top-level repository_context it publishes
   * (fb55ef7b review_facade.go:1114-1119); at 301fb2ad (:1126-1133) only the transition's arguments carry the handle.
   */
  readonly correctionContextReference: boolean;
}

export const PROFILE_TRAITS: Readonly<Record<Profile, ProfileTraits>> = {
  // "2.3.0": a pre-relay rc.1-era build (status/v5, --agent on status, no capture --agent/--materialize).
  "2.3.0": {
    version: "2.3.0",
    relayFlags: false,
    collectCapture: false,
    honoursHandshake: false,
    handshakeWording: "v2.4.0",
    dormantTransport: false,
    lensSubmission: "none",
    agentSubmit: false,
    piWithoutMaterialize: "host-mediated",
    roleVerbs: false,
    finalizeAdmissionFindings: true,
    statusSchema: "gentle-ai.review-integration.status/v5",
    atomicStart: false,
    approvalBurns: false,
    decidingGates: true,
    correctionContextReference: false,
  },
  "2.4.0": {
    version: "2.4.0",
    relayFlags: true,
    collectCapture: true,
    honoursHandshake: true,
    handshakeWording: "v2.4.0",
    dormantTransport: false,
    lensSubmission: "v2.4.0",
    agentSubmit: false,
    piWithoutMaterialize: "host-mediated",
    roleVerbs: true,
    finalizeAdmissionFindings: true,
    statusSchema: "gentle-ai.review-integration.status/v5",
    atomicStart: false,
    approvalBurns: false,
    decidingGates: true,
    correctionContextReference: false,
  },
  // v2.5.0 = fb55ef7b (main-0822) behaviour, which carries PR #3444 and #3441, plus (inferred) PR #3845's
  // `--agent=pi` submission form and `--agent pi --input` admission, which no inspected source contains.
  "2.5.0": {
    version: "2.5.0",
    relayFlags: true,
    collectCapture: true,
    honoursHandshake: true,
    handshakeWording: "pr3444",
    dormantTransport: true,
    lensSubmission: "v2.5.0",
    agentSubmit: true,
    piWithoutMaterialize: "split",
    roleVerbs: true,
    finalizeAdmissionFindings: false,
    statusSchema: "gentle-ai.review-integration.status/v5",
    atomicStart: true,
    approvalBurns: true,
    decidingGates: false,
    correctionContextReference: true,
  },
};

/** The traits of a profile. */
export function traitsOf(profile: Profile): ProfileTraits {
  return PROFILE_TRAITS[profile];
}
