// Broken relay: every slot carries all four optional keys, set to undefined where the input has none (the surviving
// shape of `x !== undefined ? { x } : {}` turned `true`), so a host testing `"submission" in slot` relays a slot
// with no form as if it had one.
import type { ReviewCollectInputV3, ReviewHostRelaySlot } from "../../../../relay/index.ts";
import { reviewHostRelaySlots as slots } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our slots, with absent optional keys present as undefined. */
export function reviewHostRelaySlots(inputs: readonly ReviewCollectInputV3[]): readonly ReviewHostRelaySlot[] {
  return slots(inputs).map((slot) => ({
    submission: undefined,
    lens: undefined,
    order: undefined,
    subjectHash: undefined,
    ...slot,
  }));
}
