// Broken relay: kills its own process mid-call (the harness must report it and carry on).
export * from "../../../../relay/index.ts";

/** Exits the process. */
export async function runReviewHostRelaySlot(): Promise<never> {
  process.exit(3);
}
