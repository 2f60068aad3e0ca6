// The shipped goldens: each profile's main conversations, recorded against the live simulator with our relay.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScenarioSchema, type Scenario, type ScenarioInput } from "../../simulator/scenario/schema.ts";
import { runChild } from "../host/run-child.ts";
import { recordGolden } from "../record/record.ts";
import { replyCollectInputs } from "../status/decode.ts";
import { relaySlots } from "../status/slots.ts";
import { HANDSHAKE_ENV, HANDSHAKE_VALUE, statusArgv } from "../contract/provider.ts";
import type { Golden } from "./golden-schema.ts";
import { paths } from "./paths.ts";

/** One shipped golden: its conversation and the scenario (or how to derive it from the simulator). */
export interface GoldenSpec {
  readonly name: string;
  readonly description: string;
  readonly conversation: string;
  scenario(): ScenarioInput | Promise<ScenarioInput>;
}

const SIMULATOR_TIMEOUT_MS = 60_000;
const ALL_LENSES = ["review-risk", "review-resilience", "review-readability", "review-reliability"] as const;

/**
 * The relay always exports the handshake, so a handshake refusal reaches it only from a provider that ignores it.
 * The simulator's own refusal bytes (materialize without the handshake) are injected as faults on the materialize leg.
 */
async function handshakeRefusalScenario(base: ScenarioInput): Promise<ScenarioInput> {
  const dir = await mkdtemp(join(tmpdir(), "relay-conformance-catalogue-"));
  try {
    await writeFile(join(dir, "scenario.json"), JSON.stringify(base));
    const env: NodeJS.ProcessEnv = { ...process.env, GENTLE_AI_SIM_SCENARIO: join(dir, "scenario.json"), GENTLE_AI_SIM_STATE: join(dir, "state") };
    delete env.GENTLE_AI_SIM_REPLAY;
    delete env.GENTLE_AI_SIM_TRANSCRIPT;
    const run = (argv: string[], handshake: boolean) => {
      const e: NodeJS.ProcessEnv = { ...env };
      if (handshake) e[HANDSHAKE_ENV] = HANDSHAKE_VALUE;
      else delete e.GENTLE_PI_REVIEW_RELAY_CONTRACT;
      return runChild(paths.simGentleAi(), argv, { cwd: dir, env: e, timeoutMs: SIMULATOR_TIMEOUT_MS });
    };
    const status = await run(statusArgv(dir, true), true);
    const slot = relaySlots(replyCollectInputs(status))[0];
    if (slot === undefined) throw new Error("simulator STATUS offers no relay slot for the handshake-refusal golden");
    const refusal = await run(["review", "capture-result", ...slot.captureArgumentTokens], false);
    const leg = { program: "gentle-ai" as const, verb: "capture-result", leg: "materialize" as const, calls: [1] };
    return {
      ...base,
      faults: [
        { ...leg, fault: { kind: "stdout", bytes: { base64: refusal.stdout.toString("base64") } } },
        { ...leg, fault: { kind: "stderr", bytes: { base64: refusal.stderr.toString("base64") } } },
        { ...leg, fault: { kind: "exit-code", code: refusal.exitCode ?? 1 } },
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const CATALOGUE: readonly GoldenSpec[] = [
  {
    name: "lens-capture-2.4.0",
    description: "v2.4.0: STATUS --agent pi, all four lenses relayed (materialize, pi, submit), STATUS offers finalize",
    conversation: "lens-capture",
    scenario: () => ({ name: "lens-capture-2.4.0", profile: "2.4.0" }),
  },
  {
    name: "lens-capture-2.5.0",
    description: "v2.5.0 (inferred): STATUS --agent pi offers the published 8-token submission (no source supports a 2.5.0 form); all four lenses relayed",
    conversation: "lens-capture",
    scenario: () => ({ name: "lens-capture-2.5.0", profile: "2.5.0" }),
  },
  {
    name: "unknown-flag-2.3.0",
    description: "pre-relay build: materialize refused with `flag provided but not defined: -agent`, relay-unavailable",
    conversation: "unknown-flag",
    scenario: () => ({ name: "unknown-flag-2.3.0", profile: "2.3.0" }),
  },
  {
    name: "handshake-refusal-2.4.0",
    description: "v2.4.0: STATUS without the handshake refuses pi; a materialize refused by the handshake gate gives handshake-refused",
    conversation: "handshake-refusal",
    scenario: () => handshakeRefusalScenario({ name: "handshake-refusal-2.4.0", profile: "2.4.0" }),
  },
  {
    name: "handshake-refusal-2.5.0",
    description: "v2.5.0 (inferred): the handshake refusal in the PR #3444 wording still classifies as handshake-refused",
    conversation: "handshake-refusal",
    scenario: () => handshakeRefusalScenario({ name: "handshake-refusal-2.5.0", profile: "2.5.0" }),
  },
  {
    name: "admission-resubmit-2.4.0",
    description: "v2.4.0: pi answers whitespace, submit refused [invalid_request] (mutationOutcome none); the same slot then succeeds",
    conversation: "admission-resubmit",
    scenario: () => ({
      name: "admission-resubmit-2.4.0",
      profile: "2.4.0",
      faults: [{ program: "pi", calls: [1], fault: { kind: "stdout", bytes: { text: "\n" } } }],
    }),
  },
  {
    name: "role-vector-2.4.0",
    description: "v2.4.0: every lens captured, refuter role: the provider_refuter vector runs verbatim (gentle-ai spawns pi itself)",
    conversation: "role-vector",
    scenario: () => ({ name: "role-vector-2.4.0", profile: "2.4.0", lineage: { captured: [...ALL_LENSES], refuter: true } }),
  },
  {
    name: "correction-finalize-2.4.0",
    description: "v2.4.0 correction_required: capture-evidence, five-field validation document, negotiated FINALIZE (#279 flow)",
    conversation: "correction-finalize",
    scenario: () => ({ name: "correction-finalize-2.4.0", profile: "2.4.0", lineage: { state: "correction_required", correction: { stage: "evidence_required" } } }),
  },
];

/** Path of a catalogue golden. */
export function cataloguePath(spec: GoldenSpec, dir = paths.goldenDir()): string {
  return join(dir, `${spec.name}.golden.json`);
}

/** Records a catalogue golden from scratch against the live simulator. */
export async function buildCatalogueGolden(spec: GoldenSpec, relayModule = paths.ourRelay(), env: NodeJS.ProcessEnv = process.env): Promise<Golden> {
  const scenario: Scenario = ScenarioSchema.parse(await spec.scenario());
  return recordGolden({
    name: spec.name,
    description: spec.description,
    gentleAi: paths.simGentleAi(),
    pi: paths.simPi(),
    relayModule,
    scenario,
    source: "simulator",
    conversation: spec.conversation,
    env,
  });
}
