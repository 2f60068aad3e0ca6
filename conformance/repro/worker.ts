// Calls run in a fresh relay host: host tasks (process/protocol.ts HostTask) that steps/client.ts (`process=fresh`)
// and steps/relay.ts (every `relay` step) hand to conformance/process/run-task.ts; the outcome comes back flattened.
import { RELAY_ENTRY_EXPORT } from "../process/protocol.ts";
import { loadModule, ReproInputError } from "./modules.ts";
import type { Outcome } from "./outcome.ts";
import { callRelaySlot, type RelaySlotJob, type RunSlot } from "./relay-call.ts";
import type { ClientJob, CorrectionFinalizeJob } from "./steps/client.ts";

/** Creates the client from the job's module in this (fresh) process and runs the one call. */
export async function runClientJob(job: ClientJob): Promise<Outcome> {
  if (job.tmpdir !== undefined) process.env["TMPDIR"] = job.tmpdir;
  // Loaded on demand: a relay job's host child need not load the client steps (and the host machinery they use).
  const { createClient, runJob } = await import("./steps/client.ts");
  const client = await createClient(job.modulePath, job.context);
  return runJob(client, job);
}

/** Loads the relay module in this (host) process and runs one runReviewHostRelaySlot call on the job's request. */
export async function runRelaySlotJob(job: RelaySlotJob): Promise<Outcome> {
  // The host is fresh for this one job: the world's TMPDIR is its os.tmpdir() from here on.
  if (job.tmpdir !== undefined) process.env["TMPDIR"] = job.tmpdir;
  const fn = (await loadModule(job.modulePath))[RELAY_ENTRY_EXPORT];
  // The step checked the export before; a module that loses it on a second load is still bad input.
  if (typeof fn !== "function") throw new ReproInputError(`${job.modulePath} exports no ${RELAY_ENTRY_EXPORT}()`);
  return callRelaySlot(fn as RunSlot, job.request);
}

/** Runs a FINALIZE client module's runCorrectionFinalize once in this (fresh) host, with the world's TMPDIR. */
export async function runCorrectionFinalizeJob(job: CorrectionFinalizeJob): Promise<Outcome> {
  if (job.tmpdir !== undefined) process.env["TMPDIR"] = job.tmpdir;
  const { correctionFinalize } = await import("./steps/client.ts");
  return correctionFinalize(job);
}
