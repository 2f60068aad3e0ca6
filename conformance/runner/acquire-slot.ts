import type { Profile } from "../../simulator/scenario/schema.ts";
import { collectInputs, StatusSchema, type TypedSubmission } from "../status/decode.ts";
import { relaySlots, renderToken, type RelaySlot } from "../status/slots.ts";
import { runProgram } from "../process/run-child.ts";
import { HANDSHAKE_ENV, HANDSHAKE_VALUE, statusArgv } from "../contract/provider.ts";
import { harnessPaths } from "../paths.ts";
import { gentleAiInProcess } from "../../simulator/gentle-ai/in-process.ts";

/**
 * Where a case's slot came from: the provider's relay slot, or (pre-relay builds) bare inputs plus the relay tokens.
 */
export interface AcquiredSlot {
  readonly slot: RelaySlot;
  readonly source: "status" | "pre-relay";
  /** Every relay slot STATUS offered (empty on pre-relay builds). */
  readonly offered: readonly RelaySlot[];
}

export interface AcquireOptions {
  readonly gentleAi: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly profile: Profile;
  /** Which offered slot to take (0-based). */
  readonly index?: number;
  readonly timeoutMs?: number;
  /** Spawn STATUS even when the simulator's planner could answer it in this process (the reference path). */
  readonly spawn?: boolean;
}

/** A slot as a host obtains it: STATUS with `--agent pi` under the handshake, decoded by the harness. */
export async function acquireSlot(options: AcquireOptions): Promise<AcquiredSlot> {
  const env = { ...options.env, [HANDSHAKE_ENV]: HANDSHAKE_VALUE };
  const timeoutMs = options.timeoutMs ?? 20_000;
  const withAgent = await status(options, statusArgv(options.cwd, true), env, timeoutMs);
  const offered = withAgent.exitCode === 0 ? relaySlots(collectInputs(parseStatus(withAgent.stdout))) : [];
  const index = options.index ?? 0;
  const chosen = offered[index];
  if (chosen) return { slot: chosen, source: "status", offered };
  if (options.profile !== "2.3.0") {
    throw new Error(
      `STATUS --agent pi offered ${offered.length} relay slot(s), wanted #${index}; exit ${withAgent.exitCode}, stderr ${JSON.stringify(withAgent.stderr.toString("utf8").slice(0, 400))}`,
    );
  }
  // A pre-relay provider offers no relay slot: the host's tokens are the bare lens binding plus the relay pair.
  const bare = await status(options, statusArgv(options.cwd, false), env, timeoutMs);
  const inputs =
    bare.exitCode === 0
      ? collectInputs(parseStatus(bare.stdout)).filter((i) => i.capture_operation === "review.capture-result")
      : [];
  const input = inputs[index] ?? inputs[0];
  const binding = input ? input.arguments.map(renderToken) : SYNTHETIC_BINDING;
  return {
    slot: {
      captureArgumentTokens: [...binding, "--agent=pi", "--materialize=true"],
      submission: legacySubmission(binding),
    },
    source: "pre-relay",
    offered: [],
  };
}

let simulatorPath: string | undefined;

/**
 * One STATUS call of the harness's own. The simulator's is answered in this process through its planner, with the
 * spawned binary's bytes, state and transcript line (on the STATUS transcript, never the relay's): a Node start
 * saved per case. A call only a process can answer (a fault may select it, a Git repository), and any other
 * gentle-ai, is spawned.
 */
async function status(
  options: AcquireOptions,
  argv: readonly string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ exitCode: number | null; stdout: Buffer; stderr: Buffer }> {
  simulatorPath ??= harnessPaths().gentleAiSimulator;
  if (!options.spawn && options.gentleAi === simulatorPath) {
    const answered = await gentleAiInProcess({ argv, env, cwd: options.cwd, executablePath: options.gentleAi });
    if (answered !== null) return { exitCode: answered.exitCode, stdout: answered.stdout, stderr: answered.stderr };
  }
  return runProgram(options.gentleAi, argv, { cwd: options.cwd, env, timeoutMs });
}

function parseStatus(stdout: Buffer): ReturnType<typeof StatusSchema.parse> {
  const parsed = StatusSchema.safeParse(JSON.parse(stdout.toString("utf8")));
  if (!parsed.success) throw new Error(`undecodable STATUS: ${parsed.error.message}`);
  return parsed.data;
}

const HEX = "0".repeat(63) + "1";
/** Binding tokens used only when a pre-relay STATUS yields no lens input at all. */
const SYNTHETIC_BINDING = [
  "--lineage=review-0000000000000001",
  `--expected-revision=sha256:${HEX}`,
  `--target=sha256:${HEX}`,
  `--repository-context=rctx1_${HEX}`,
  "--lens=review-risk",
  "--order=0",
  `--subject-hash=sha256:${HEX}`,
];

/** The v2.4.0-shaped form: binding tokens then `--input={{value}}`. */
function legacySubmission(binding: readonly string[]): TypedSubmission {
  return {
    operationToken: "capture-result",
    argumentTokens: [...binding, "--input={{value}}"],
    values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", substitutionLocation: binding.length }],
  };
}
