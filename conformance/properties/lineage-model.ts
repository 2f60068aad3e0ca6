// Model-based test of the simulated provider's slot lineage (fc.commands): any order of STATUS, materialize,
// submit, refused submit, resubmit and faulted submit must agree with a model of slot consumption.
// It drives the simulator directly (no relay), so the slot rules every relay clause leans on hold. A call the
// simulator's planner can answer runs in this process, with the spawned binary's bytes, state and transcript
// (simulator/runtime/call-in-process.ts): the model is about slot rules, not the process. A faulted call spawns.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import type { Profile } from "../../simulator/scenario/schema.ts";
import { harnessPaths } from "../paths.ts";
import { acquireSlot } from "../runner/acquire-slot.ts";
import { HANDSHAKE_ENV, HANDSHAKE_VALUE, statusArgv } from "../contract/provider.ts";
import type { ChildResult } from "../process/child-result.ts";
import { runProgram } from "../process/run-child.ts";
import { gentleAiInProcess } from "../../simulator/gentle-ai/in-process.ts";
import { collectInputs, StatusSchema } from "../status/decode.ts";
import { relaySlots, type RelaySlot } from "../status/slots.ts";

type SlotState = { kind: "open" } | { kind: "captured"; variant: 0 | 1 } | { kind: "unknown"; variant: 0 | 1 };

/** What the model believes about the lineage. */
export interface LineageModel {
  readonly slots: SlotState[];
  submitCalls: number;
}

/** The real system under test: one fresh simulator state and the fixtures shared by all runs. */
interface LineageReal {
  readonly dir: string;
  readonly env: Record<string, string>;
  readonly scenario: { profile: Profile; faults: unknown[] };
  readonly fixtures: Fixtures;
}

/** Per-lens tokens, forms, prompts and two valid, different reviewer results (computed once). */
interface Fixtures {
  readonly profile: Profile;
  readonly lenses: readonly string[];
  readonly slots: readonly RelaySlot[];
  readonly prompts: readonly Buffer[];
  readonly results: readonly (readonly [Buffer, Buffer])[];
  readonly binDir: string;
  readonly root: string;
}

const paths = harnessPaths();
const TIMEOUT = 30_000;

function simEnv(dir: string, binDir: string): Record<string, string> {
  return {
    PATH: binDir,
    HOME: dir,
    TMPDIR: dir,
    GENTLE_AI_SIM_SCENARIO: join(dir, "scenario.json"),
    GENTLE_AI_SIM_STATE: join(dir, "state"),
    [HANDSHAKE_ENV]: HANDSHAKE_VALUE,
  };
}

/** What a command reads of a gentle-ai call. */
type CallResult = Pick<ChildResult, "exitCode" | "stdout" | "stderr">;

async function gentleAi(real: { dir: string; env: Record<string, string> }, argv: string[]): Promise<CallResult> {
  const answered = await gentleAiInProcess({
    argv,
    env: real.env,
    cwd: real.dir,
    executablePath: paths.gentleAiSimulator,
  });
  return answered ?? runProgram(paths.gentleAiSimulator, argv, { cwd: real.dir, env: real.env, timeoutMs: TIMEOUT });
}

/** Builds the fixtures: STATUS slots, each lens's prompt and two admitted-valid results. */
export async function lineageFixtures(profile: Profile = "2.4.0"): Promise<Fixtures> {
  const root = mkdtempSync(join(tmpdir(), "relay-conformance-model-"));
  const binDir = join(root, "bin");
  mkdirSync(binDir);
  const { symlinkSync } = await import("node:fs");
  symlinkSync(process.execPath, join(binDir, "node"));
  const dir = join(root, "fixtures");
  mkdirSync(dir);
  const env = simEnv(dir, binDir);
  writeFileSync(env.GENTLE_AI_SIM_SCENARIO ?? "", JSON.stringify({ profile }));
  const acquired = await acquireSlot({ gentleAi: paths.gentleAiSimulator, cwd: dir, env, profile });
  const slots = acquired.offered;
  const prompts: Buffer[] = [];
  const results: [Buffer, Buffer][] = [];
  for (const slot of slots) {
    const prompt = (await gentleAi({ dir, env }, ["review", "capture-result", ...slot.captureArgumentTokens])).stdout;
    prompts.push(prompt);
    const variant = async (findings: "none" | "suggestion"): Promise<Buffer> => {
      const file = join(dir, `pi-${findings}.json`);
      writeFileSync(file, JSON.stringify({ profile, pi: { result: { kind: "reviewer-result", findings } } }));
      return (
        await runProgram(paths.piSimulator, ["--print"], {
          cwd: dir,
          env: { ...env, GENTLE_AI_SIM_SCENARIO: file },
          stdin: prompt,
          timeoutMs: TIMEOUT,
        })
      ).stdout;
    };
    results.push([await variant("none"), await variant("suggestion")]);
  }
  return { profile, lenses: slots.map((s) => s.lens ?? "?"), slots, prompts, results, binDir, root };
}

/** Removes the fixtures' temp folders. */
export function disposeFixtures(fixtures: Fixtures): void {
  rmSync(fixtures.root, { recursive: true, force: true });
}

function submitArgv(real: LineageReal, lens: number, file: string): string[] {
  const form = real.fixtures.slots[lens]?.submission;
  if (!form) throw new Error("slot without submission");
  const loc = form.values[0]?.substitutionLocation ?? -1;
  return [
    "review",
    form.operationToken,
    ...form.argumentTokens.map((t, i) => (i === loc ? t.split("{{value}}").join(file) : t)),
  ];
}

async function submitBytes(real: LineageReal, lens: number, bytes: Buffer): Promise<CallResult> {
  const file = join(real.dir, "input.raw");
  writeFileSync(file, bytes);
  return gentleAi(real, submitArgv(real, lens, file));
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

const known = (s: SlotState | undefined): boolean => s !== undefined && s.kind !== "unknown";

class StatusCommand implements fc.AsyncCommand<LineageModel, LineageReal> {
  check = (): boolean => true;
  async run(model: LineageModel, real: LineageReal): Promise<void> {
    const r = await gentleAi(real, statusArgv(real.dir, true));
    expect(r.exitCode === 0, `STATUS exit ${r.exitCode}: ${r.stderr.toString("utf8")}`);
    const offered = relaySlots(collectInputs(StatusSchema.parse(JSON.parse(r.stdout.toString("utf8"))))).map(
      (s) => s.lens,
    );
    model.slots.forEach((s, i) => {
      // STATUS is the reconciliation point: an unknown outcome becomes known here.
      if (s.kind === "unknown")
        model.slots[i] = offered.includes(real.fixtures.lenses[i])
          ? { kind: "open" }
          : { kind: "captured", variant: s.variant };
    });
    const expected = real.fixtures.lenses.filter((_, i) => model.slots[i]?.kind === "open");
    expect(
      JSON.stringify(offered) === JSON.stringify(expected),
      `STATUS offered ${JSON.stringify(offered)}, model expects ${JSON.stringify(expected)}`,
    );
  }
  toString = (): string => "status";
}

class MaterializeCommand implements fc.AsyncCommand<LineageModel, LineageReal> {
  constructor(readonly lens: number) {}
  check = (m: Readonly<LineageModel>): boolean => known(m.slots[this.lens]);
  async run(model: LineageModel, real: LineageReal): Promise<void> {
    const r = await gentleAi(real, [
      "review",
      "capture-result",
      ...(real.fixtures.slots[this.lens]?.captureArgumentTokens ?? []),
    ]);
    // gentle-ai materializes a slot whether or not it is captured (review_artifact.go:398-418 checks no slot state).
    expect(
      r.exitCode === 0,
      `materialize of a ${model.slots[this.lens]?.kind ?? "unknown"} slot exited ${r.exitCode} ${r.stderr.toString("utf8").trim()}`,
    );
    expect(
      r.stdout.equals(real.fixtures.prompts[this.lens] ?? Buffer.alloc(0)),
      "materialize is not byte-identical across calls",
    );
  }
  toString = (): string => `materialize(${this.lens})`;
}

class SubmitCommand implements fc.AsyncCommand<LineageModel, LineageReal> {
  constructor(
    readonly lens: number,
    readonly variant: 0 | 1,
  ) {}
  check = (m: Readonly<LineageModel>): boolean => known(m.slots[this.lens]);
  async run(model: LineageModel, real: LineageReal): Promise<void> {
    model.submitCalls += 1;
    const r = await submitBytes(real, this.lens, real.fixtures.results[this.lens]?.[this.variant] ?? Buffer.alloc(0));
    const s = model.slots[this.lens];
    if (s?.kind === "open" || (s?.kind === "captured" && s.variant === this.variant)) {
      expect(
        r.exitCode === 0 && r.stdout.length > 0,
        `submit expected to be admitted: exit ${r.exitCode} ${r.stderr.toString("utf8").trim()}`,
      );
      model.slots[this.lens] = { kind: "captured", variant: this.variant };
    } else {
      expect(
        r.exitCode === 1 && r.stderr.toString("utf8").includes("[reviewer_result_slot_occupied]"),
        `different bytes into a filled slot: exit ${r.exitCode} ${r.stderr.toString("utf8").trim()}`,
      );
    }
  }
  toString = (): string => `submit(${this.lens}, v${this.variant})`;
}

class RefusedSubmitCommand implements fc.AsyncCommand<LineageModel, LineageReal> {
  constructor(readonly lens: number) {}
  check = (): boolean => true;
  async run(model: LineageModel, real: LineageReal): Promise<void> {
    model.submitCalls += 1;
    const r = await submitBytes(real, this.lens, Buffer.from("not a reviewer result\n"));
    expect(
      r.exitCode === 1 && r.stderr.toString("utf8").includes("[invalid_request]"),
      `refused submit: exit ${r.exitCode} ${r.stderr.toString("utf8").trim()}`,
    );
  }
  toString = (): string => `refused-submit(${this.lens})`;
}

class FaultedSubmitCommand implements fc.AsyncCommand<LineageModel, LineageReal> {
  constructor(
    readonly lens: number,
    readonly variant: 0 | 1,
  ) {}
  check = (m: Readonly<LineageModel>): boolean => known(m.slots[this.lens]);
  async run(model: LineageModel, real: LineageReal): Promise<void> {
    model.submitCalls += 1;
    real.scenario.faults.push(
      { program: "gentle-ai", leg: "submit", calls: [model.submitCalls], fault: { kind: "exit-code", code: 1 } },
      {
        program: "gentle-ai",
        leg: "submit",
        calls: [model.submitCalls],
        fault: { kind: "stderr", bytes: { text: "Error: injected\n" } },
      },
    );
    writeFileSync(real.env.GENTLE_AI_SIM_SCENARIO ?? "", JSON.stringify(real.scenario));
    const r = await submitBytes(real, this.lens, real.fixtures.results[this.lens]?.[this.variant] ?? Buffer.alloc(0));
    expect(
      r.exitCode === 1 && r.stderr.toString("utf8") === "Error: injected\n",
      `faulted submit: exit ${r.exitCode} ${r.stderr.toString("utf8")}`,
    );
    // The caller cannot tell whether the provider captured it: only STATUS can.
    if (model.slots[this.lens]?.kind === "open") model.slots[this.lens] = { kind: "unknown", variant: this.variant };
  }
  toString = (): string => `faulted-submit(${this.lens}, v${this.variant})`;
}

/** The command arbitraries over n lenses. */
export function lineageCommands(n: number): fc.Arbitrary<Iterable<fc.AsyncCommand<LineageModel, LineageReal>>> {
  const lens = fc.nat({ max: n - 1 });
  const variant = fc.constantFrom<0 | 1>(0, 1);
  return fc.commands(
    [
      fc.constant(new StatusCommand()),
      lens.map((l) => new MaterializeCommand(l)),
      fc.tuple(lens, variant).map(([l, v]) => new SubmitCommand(l, v)),
      lens.map((l) => new RefusedSubmitCommand(l)),
      fc.tuple(lens, variant).map(([l, v]) => new FaultedSubmitCommand(l, v)),
    ],
    { maxCommands: 10 },
  );
}

/** Runs the model-based property; throws fast-check's failure (with seed and path) on a disagreement. */
export async function runLineageModel(fixtures: Fixtures, options: { runs: number; seed?: number }): Promise<void> {
  await fc.assert(
    fc.asyncProperty(lineageCommands(fixtures.lenses.length), async (commands) => {
      const dir = mkdtempSync(join(fixtures.root, "run-"));
      try {
        const scenario = { profile: fixtures.profile, faults: [] as unknown[] };
        const env = simEnv(dir, fixtures.binDir);
        writeFileSync(env.GENTLE_AI_SIM_SCENARIO ?? "", JSON.stringify(scenario));
        const real: LineageReal = { dir, env, scenario, fixtures };
        const model: LineageModel = { slots: fixtures.lenses.map(() => ({ kind: "open" })), submitCalls: 0 };
        await fc.asyncModelRun(() => ({ model, real }), [...commands, new StatusCommand()]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }),
    { numRuns: options.runs, ...(options.seed === undefined ? {} : { seed: options.seed }) },
  );
}
