// The Go-materialized provider role prompt (refuter / targeted validator). The real layout is unpublished; this
// deterministic form reuses the lens prompt's binding line so the fake pi can answer it (inferred).
import { goMarshal } from "../../../go/go-json.ts";
import { sha256Prefixed } from "../../../state/identities.ts";
import type { Authority } from "../shared/correction-authority.ts";
import { validationRequestJson } from "../shared/correction-authority.ts";
import { NATIVE_POLICY_CONTENT } from "../../../contract/native-policy.ts";

export type ProviderRole = "refuter" | "targeted-validator";

function block(header: string, body: string): string {
  return `${header}\n${body.trim()}\n${header}_END\n`;
}

/** The role's bound target: the frozen target for the refuter, the correction target for the validator. */
export function roleTarget(a: Authority, role: ProviderRole): string {
  return role === "refuter" ? a.targetIdentity : a.correctionTargetIdentity;
}

/** Renders the role prompt bytes; a pure function of the authority, so repeats are byte-identical. */
export function rolePrompt(a: Authority, role: ProviderRole): Buffer {
  const target = roleTarget(a, role);
  const binding = goMarshal({
    lineage: a.lineageId,
    target,
    role,
    revision: a.revision,
    repository_context: a.repositoryContext,
    request_hash: role === "targeted-validator" ? a.requestHash : undefined,
    subject_hash: sha256Prefixed(`role\u0000${role}\u0000${a.lineageId}\u0000${target}\u0000${a.revision}`),
  });
  const paths =
    role === "refuter"
      ? a.ids.manifest.map((m) => `${m.status}\t${m.path}`)
      : a.ids.correctionPaths.map((p) => `M\t${p}`);
  const instruction =
    role === "refuter"
      ? "Try to refute every captured reviewer finding against the frozen candidate. Reply with one JSON object whose subject_hash is copied from GENTLE_AI_REVIEW_BINDING."
      : "Run the provider-owned targeted validation of the correction candidate. Reply with one JSON object whose subject_hash is copied from GENTLE_AI_REVIEW_BINDING.";
  // fb55ef7b writes the frozen policy raw after the instruction, since the request's JSON escapes its line breaks
  // (reviewProviderRolePrompt, review_provider_roles.go:308-313); 301fb2ad's request carries no policy.
  const policy =
    role === "targeted-validator" && a.policyInValidationRequest ? `\n\nFrozen policy:\n${NATIVE_POLICY_CONTENT}` : "";
  let out = `GENTLE_AI_REVIEW_BINDING ${binding}\n`;
  out += block("GENTLE_AI_PROVIDER_ROLE_INSTRUCTION", instruction + policy);
  out += block("GENTLE_AI_REVIEW_NAME_STATUS", paths.join("\n"));
  if (role === "targeted-validator")
    out += block("GENTLE_AI_TARGETED_VALIDATION_REQUEST", goMarshal(validationRequestJson(a)));
  return Buffer.from(out + "GENTLE_AI_PROVIDER_ROLE_END\n", "utf8");
}
