// review status (provider reference §8). Work in progress.
import type { Invocation, Outcome } from "../invocation.ts";
import { plainError } from "../route.ts";

/** review status. */
export function status(invocation: Invocation): Outcome {
  void invocation;
  return plainError("gentle-ai-sim: review status is not simulated yet");
}
