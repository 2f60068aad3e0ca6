// Resolving a --repository-context handle (reviewtransaction `ResolveReviewRepositoryContext`, repository_locator.go:
// 233-245, 383-420 at fb55ef7b). The simulated repository issues one handle; it commits to the lineage, the target the
// current state publishes its context for, and (once resolved) the authority's current revision.
import type { Authority } from "../verbs/shared/correction-authority.ts";
import { contextTarget, earlierContextBinding } from "../verbs/shared/correction-authority.ts";
import { opaqueContextRefusal, repositoryContextUnavailable } from "../refusal.ts";

/** The (lineage, target, revision) a caller binds its handle to. */
export interface ContextBinding {
  readonly lineage: string;
  readonly target: string;
  readonly revision: string;
}

const SHA256 = /^sha256:[0-9a-f]{64}$/;
const LINEAGE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export { contextTarget };

const STALE = "review repository context is stale or has no live matching authority";

/**
 * Resolves a handle to the binding it commits to (`ResolveReviewRepositoryContextBinding`, :256-283): an unknown
 * handle, or one with no live matching authority, is repository_context_unavailable.
 */
export function resolveContextHandle(a: Authority, handle: string): ContextBinding {
  const target = contextTarget(a);
  if (handle !== a.repositoryContext) {
    // A handle STATUS published for an earlier revision: it resolves to the current revision only while its target is
    // still live and the build kept that revision's effect intent (repository_locator.go:383-395); else it is stale.
    const earlier = earlierContextBinding(a, handle);
    if (earlier === undefined) throw repositoryContextUnavailable(handle);
    if (!a.earlierContextResolves || earlier.target !== target)
      throw opaqueContextRefusal("repository_context_unavailable", STALE);
    return { lineage: a.lineageId, target, revision: a.revision };
  }
  // (inferred) for a burned approved authority the source fails earlier, loading the store, with another cause.
  if (target === undefined) throw opaqueContextRefusal("repository_context_unavailable", STALE);
  return { lineage: a.lineageId, target, revision: a.revision };
}

/**
 * Resolves a handle for a caller binding, or throws the refusal the source gives: a malformed binding, an unknown
 * handle, no live matching authority, or a binding the handle does not commit to (all repository_context_unavailable).
 */
export function resolveRepositoryContext(a: Authority, handle: string, binding: ContextBinding): void {
  if (
    binding.lineage.length > 128 ||
    !LINEAGE.test(binding.lineage) ||
    !SHA256.test(binding.target) ||
    !SHA256.test(binding.revision)
  )
    throw opaqueContextRefusal("repository_context_unavailable", "invalid review repository context binding");
  const resolved = resolveContextHandle(a, handle);
  if (
    binding.lineage !== resolved.lineage ||
    binding.target !== resolved.target ||
    binding.revision !== resolved.revision
  )
    throw opaqueContextRefusal("repository_context_unavailable", "review repository context binding is invalid");
}
