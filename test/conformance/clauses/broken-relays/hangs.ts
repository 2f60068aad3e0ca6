// Broken relay: never settles (the harness's per-case timeout must contain it).
export * from "../../../../relay/index.ts";

/** Never resolves. */
export function runReviewHostRelaySlot(): Promise<never> {
  return new Promise(() => {
    setInterval(() => {}, 1 << 30);
  });
}
