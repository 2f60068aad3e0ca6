// The Pi handshake and runtime eligibility gate (provider reference §6, `reviewRuntimeWithImmutableTransport`).
import type { FailureCode } from "../../output/envelope.ts";
import type { ProfileTraits } from "../profiles.ts";
import { ReviewRefusal } from "../refusal.ts";
import { goQuoteStr } from "../../go/go-quote.ts";

export const HANDSHAKE_ENV = "GENTLE_PI_REVIEW_RELAY_CONTRACT";
export const HANDSHAKE_VALUE = "gentle-pi.review-relay/v1";
export const PI_TRANSPORT = "pi_host_relay";

/** Catalog order of the compiled runtimes that are always eligible. */
export const COMPILED_RUNTIMES = ["claude-code", "opencode", "codex"] as const;

/** (inferred) compiled transport names, used only in the v2.5.0 `--agent … --input` refusal. */
export const COMPILED_TRANSPORTS: Readonly<Record<string, string>> = {
  "claude-code": "claude_code_task",
  opencode: "opencode_task",
  codex: "codex_exec",
};

export type RuntimeKind = "compiled" | "host";
/** A runtime the gate can admit: a compiled one, or the pi host. */
export type Runtime = (typeof COMPILED_RUNTIMES)[number] | "pi";

function isCompiled(agent: string): agent is (typeof COMPILED_RUNTIMES)[number] {
  return (COMPILED_RUNTIMES as readonly string[]).includes(agent);
}

/** The admitted runtime, or the native refusal text. */
export type RuntimeGate =
  | { readonly ok: true; readonly runtime: Runtime; readonly kind: RuntimeKind }
  | { readonly ok: false; readonly text: string };

/** Where the gate fires decides the failure code (§6 table). */
export type GateSurface = "capture" | "status" | "start" | "finalize";

const UNKNOWN = "the active review runtime is unknown";
const PR3444 =
  "the active runtime is not eligible for immutable receipt review; pi is eligible only while GENTLE_PI_REVIEW_RELAY_CONTRACT declares the exact relay contract this binary admits, which the gentle-pi host exports on every invocation it relays; export it in this shell and re-run";

function notEligible(list: readonly string[]): string {
  return (
    "the active runtime is not eligible for immutable receipt review; exit receipt-driven review with " +
    "`gentle-ai review mode disable --scope clone --cwd <repo>`; supported immutable review runtimes: " +
    list.join(", ")
  );
}

/** Whether the environment carries the exact handshake value (no trimming, case-sensitive). */
export function handshakePresent(env: Readonly<Record<string, string | undefined>>): boolean {
  return env[HANDSHAKE_ENV] === HANDSHAKE_VALUE;
}

/** Checks one `--agent` value against the profile's catalog and the handshake. */
export function gateRuntime(
  traits: ProfileTraits,
  agent: string,
  env: Readonly<Record<string, string | undefined>>,
): RuntimeGate {
  if (agent.trim() === "" || agent !== agent.trim()) return { ok: false, text: UNKNOWN };
  const handshake = traits.honoursHandshake && handshakePresent(env);
  if (isCompiled(agent)) return { ok: true, runtime: agent, kind: "compiled" };
  if (agent === "pi" && handshake) return { ok: true, runtime: "pi", kind: "host" };
  // PR #3444 (main-0822, v2.5.0 inferred) names the handshake when it is pi's only missing condition.
  if (agent === "pi" && traits.honoursHandshake && traits.handshakeWording === "pr3444")
    return { ok: false, text: PR3444 };
  return { ok: false, text: notEligible(handshake ? [...COMPILED_RUNTIMES, "pi"] : COMPILED_RUNTIMES) };
}

/** The agents gentle-ai has a capability manifest for (featureClaimsByAgent, the same at 301fb2ad and fb55ef7b). */
const MANIFEST_AGENTS = [
  "antigravity",
  "claude-code",
  "codex",
  "cursor",
  "gemini-cli",
  "hermes",
  "kilocode",
  "kimi",
  "kiro-ide",
  "openclaw",
  "opencode",
  "pi",
  "qwen-code",
  "trae-ide",
  "vscode-copilot",
  "windsurf",
];

/**
 * START's transport capability admission (review_transport_admission.go authorizeReviewTransportCapability), before
 * the contract is looked at: a claimed --agent needs a manifest that advertises review transport. The texts end with
 * the same exit guidance and supported list as the eligibility gate.
 */
export function requireTransportCapability(
  traits: ProfileTraits,
  agentFlag: string,
  env: Readonly<Record<string, string | undefined>>,
): void {
  const agent = agentFlag.trim();
  if (agent === "") return;
  const guidance = notEligible(
    traits.honoursHandshake && handshakePresent(env) ? [...COMPILED_RUNTIMES, "pi"] : COMPILED_RUNTIMES,
  ).replace(/^the active runtime is not eligible for immutable receipt review/, "");
  const refuse = (text: string): ReviewRefusal =>
    new ReviewRefusal("review_transport_capability_unsupported", text + guidance);
  if (!MANIFEST_AGENTS.includes(agent))
    throw refuse(
      `unrecognised review runtime capability claim for ${goQuoteStr(agent)}: unsupported agent capability manifest: ${goQuoteStr(agent)}`,
    );
  if (traits.dormantTransport && !([...COMPILED_RUNTIMES, "pi"] as readonly string[]).includes(agent))
    throw refuse(`runtime ${goQuoteStr(agent)} does not advertise review transport capability`);
}

/** The code a gate refusal carries on each surface. */
export function gateCode(surface: GateSurface): FailureCode {
  return surface === "status" || surface === "start" ? "immutable_review_transport_unsupported" : "invalid_request";
}

/** Runs the gate and throws the surface's refusal when the runtime is not admitted. */
export function requireRuntime(
  traits: ProfileTraits,
  agent: string,
  env: Readonly<Record<string, string | undefined>>,
  surface: GateSurface,
): { runtime: Runtime; kind: RuntimeKind } {
  const gate = gateRuntime(traits, agent, env);
  if (!gate.ok) throw new ReviewRefusal(gateCode(surface), gate.text);
  return { runtime: gate.runtime, kind: gate.kind };
}
