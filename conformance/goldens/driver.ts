// The golden conversation as a host task (runner/protocol.ts HostTask): inside the relay host's child it loads the
// relay under test and runs one conversation (recording) or the steps of a golden (replay), and returns the steps
// taken with their raw outcomes.
import { loadHostedModule } from "../host/load-module.ts";
import { CONVERSATIONS } from "./conversations.ts";
import { Host, type FinalizeModule, type RawOutcome, type RelayModule } from "./host.ts";
import type { GoldenStep } from "./golden-schema.ts";

/** The driver's job. */
export interface DriverJob {
  readonly relayModule: string;
  /** Module exporting runCorrectionFinalize; optional. */
  readonly finalizeModule?: string;
  readonly gentleAi: string;
  readonly pi: string;
  readonly cwd: string;
  readonly conversation?: string;
  readonly steps?: GoldenStep[];
}

/** What the driver hands back: every step taken and its raw outcome, in order. */
export interface DriverResult {
  readonly steps: GoldenStep[];
  readonly outcomes: RawOutcome[];
}

/** Runs one driver job with the host child's environment (the run's) as the relay's environment. */
export async function runDriverJob(job: DriverJob): Promise<DriverResult> {
  const relay = (await loadHostedModule(job.relayModule)) as unknown as RelayModule;
  if (typeof relay.runReviewHostRelaySlot !== "function") throw new Error(`${job.relayModule} exports no runReviewHostRelaySlot`);
  const finalize = job.finalizeModule === undefined ? undefined : ((await loadHostedModule(job.finalizeModule)) as unknown as FinalizeModule);
  const host = new Host({ relay, ...(finalize ? { finalize } : {}), gentleAi: job.gentleAi, pi: job.pi, cwd: job.cwd, env: process.env });
  if (job.steps !== undefined) await host.replaySteps(job.steps);
  else {
    const conversation = CONVERSATIONS[job.conversation ?? ""];
    if (conversation === undefined) throw new Error(`unknown conversation ${JSON.stringify(job.conversation)}`);
    await conversation(host, job.cwd);
  }
  return { steps: host.steps, outcomes: host.outcomes };
}
