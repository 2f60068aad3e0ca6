// Not a relay: lacks runReviewHostRelaySlot (bad input, exit 2).
export const somethingElse = 1;
