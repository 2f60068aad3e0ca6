// Calls run in a fresh relay host: host tasks (runner/protocol.ts HostTask) that steps/client.ts (`process=fresh`)
// and steps/relay.ts (every `relay` step) hand to conformance/host/run-task.ts; the outcome comes back flattened.
import { RELAY_ENTRY_EXPORT } from "../runner/protocol.ts";
import { loadModule, ReproInputError } from "./modules.ts";
import type { Outcome } from "./outcome.ts";
import { callRelaySlot, type RelaySlotJob, type RunSlot } from "./relay-call.ts";
import type { ClientJob } from "./steps/client.ts";

/** Creates the client from the job's module in this (fresh) process and runs the one call. */
export async function runClientJob(job: ClientJob): Promise<Outcome> {
  // Loaded on demand: a relay job's host child need not load the client steps (and the host machinery they use).
  const { createClient, runJob } = await import("./steps/client.ts");
  const client = await createClient(job.modulePath, job.context);
  return runJob(client, job);
}

/** Loads the relay module in this (host) process and runs one runReviewHostRelaySlot call on the job's request. */
export async function runRelaySlotJob(job: RelaySlotJob): Promise<Outcome> {
  const fn = (await loadModule(job.modulePath))[RELAY_ENTRY_EXPORT];
  // The step checked the export before; a module that loses it on a second load is still bad input.
  if (typeof fn !== "function") throw new ReproInputError(`${job.modulePath} exports no ${RELAY_ENTRY_EXPORT}()`);
  return callRelaySlot(fn as RunSlot, job.request);
}
