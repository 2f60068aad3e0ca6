// Broken relay: never settles, while a timer of its own keeps ticking (so only the harness's per-case bound, not the
// hang watch, can end it: a timer that fires before the bound might yet move it).
export * from "../../../../relay/index.ts";

/** Never resolves. */
export function runReviewHostRelaySlot(): Promise<never> {
  return new Promise(() => {
    setInterval(() => {}, 1000);
  });
}
