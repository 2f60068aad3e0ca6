// One correction-client call in a fresh host process (`process=fresh`): a host task (runner/protocol.ts HostTask)
// run by steps/client.ts in a new relay host; the outcome comes back flattened.
import type { Outcome } from "./outcome.ts";
import { createClient, runJob, type ClientJob } from "./steps/client.ts";

/** Creates the client from the job's module in this (fresh) process and runs the one call. */
export async function runClientJob(job: ClientJob): Promise<Outcome> {
  const client = await createClient(job.modulePath, job.context);
  return runJob(client, job);
}
