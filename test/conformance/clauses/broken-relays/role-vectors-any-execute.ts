// Broken relay: takes every refuter/validation input with agent=pi as a role vector, whatever its execute argument
// (relay reference §12.2 requires exactly one execute=true), so the host runs vectors the provider did not hand it.
import type { ReviewCollectInputV3, ReviewProviderRoleVectorSlot } from "../../../../relay/index.ts";
import { REVIEW_PROVIDER_ROLE_CAPTURE_OPERATIONS } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** True for role inputs with exactly one agent=pi; execute is not looked at. */
export function isReviewProviderRoleVectorInput(input: ReviewCollectInputV3): boolean {
  const agents = input.arguments.filter((a) => a.name === "agent");
  return (
    (REVIEW_PROVIDER_ROLE_CAPTURE_OPERATIONS as readonly string[]).includes(input.captureOperation) &&
    agents.length === 1 &&
    agents[0]?.value === "pi"
  );
}

/** The vectors this predicate selects. */
export function reviewProviderRoleVectorSlots(
  inputs: readonly ReviewCollectInputV3[],
): readonly ReviewProviderRoleVectorSlot[] {
  return inputs.filter(isReviewProviderRoleVectorInput).map((input) => ({
    captureOperation: input.captureOperation as ReviewProviderRoleVectorSlot["captureOperation"],
    argumentTokens: input.arguments.map((a) => a.token ?? `--${a.name}=${a.value}`),
    name: input.name,
  }));
}
