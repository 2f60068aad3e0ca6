// Broken relay: reads a slot's arguments by their first occurrence, not "exactly one" (relay reference §12), so an
// input carrying `agent=pi` twice is relayed, and the duplicated lens of another is taken as its lens.
import type { ReviewCollectInputV3, ReviewHostRelaySlot } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

const first = (input: ReviewCollectInputV3, name: string): string | undefined =>
  input.arguments.find((a) => a.name === name)?.value;

/** True for capture-result inputs whose first materialize is "true" and first agent is "pi". */
export function isReviewHostRelayCollectInput(input: ReviewCollectInputV3): boolean {
  return (
    input.captureOperation === "review.capture-result" &&
    first(input, "materialize") === "true" &&
    first(input, "agent") === "pi"
  );
}

/** The slots, arguments read by first occurrence. */
export function reviewHostRelaySlots(inputs: readonly ReviewCollectInputV3[]): readonly ReviewHostRelaySlot[] {
  return inputs.filter(isReviewHostRelayCollectInput).map((input) => {
    const lens = first(input, "lens");
    const order = first(input, "order");
    return {
      captureArgumentTokens: input.arguments.map((a) => a.token ?? `--${a.name}=${a.value}`),
      ...(input.submission !== undefined ? { submission: input.submission } : {}),
      ...(lens !== undefined ? { lens } : {}),
      ...(order !== undefined ? { order } : {}),
      ...(input.artifactSubject !== undefined ? { subjectHash: input.artifactSubject.subjectHash } : {}),
    };
  });
}
