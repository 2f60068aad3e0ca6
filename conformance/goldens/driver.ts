// Child process that loads the relay under test and runs one conversation (recording) or the steps of a golden
// (replay). It reads a job file and writes the steps taken and their raw outcomes to a result file.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { CONVERSATIONS } from "./conversations.ts";
import { Host, type FinalizeModule, type RelayModule } from "./host.ts";
import type { GoldenStep } from "./golden-schema.ts";

/** The driver's job file. */
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

const [jobPath, resultPath] = process.argv.slice(2);
if (jobPath === undefined || resultPath === undefined) throw new Error("usage: driver <job.json> <result.json>");
const job = JSON.parse(readFileSync(jobPath, "utf8")) as DriverJob;
const relay = (await import(pathToFileURL(job.relayModule).href)) as RelayModule;
if (typeof relay.runReviewHostRelaySlot !== "function") throw new Error(`${job.relayModule} exports no runReviewHostRelaySlot`);
const finalize =
  job.finalizeModule === undefined ? undefined : ((await import(pathToFileURL(job.finalizeModule).href)) as FinalizeModule);
const host = new Host({ relay, ...(finalize ? { finalize } : {}), gentleAi: job.gentleAi, pi: job.pi, cwd: job.cwd, env: process.env });
if (job.steps !== undefined) await host.replaySteps(job.steps);
else {
  const conversation = CONVERSATIONS[job.conversation ?? ""];
  if (conversation === undefined) throw new Error(`unknown conversation ${JSON.stringify(job.conversation)}`);
  await conversation(host, job.cwd);
}
writeFileSync(resultPath, JSON.stringify({ steps: host.steps, outcomes: host.outcomes }));
