// Runs gentle-pi's own real-binary lanes with the simulator (or a given gentle-ai) as their gentle-ai, and the fake
// pi as their pi: the devbinary lane, the maintainer lane (a 2.3.0 baseline wrapper and the capable binary), and the
// maintainer matrix's armed positive lens cases, built from the simulator's own STATUS as a maintainer builds them
// from a live session.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runChild } from "../process/run-child.ts";
import type { Profile } from "../../simulator/scenario/schema.ts";
import { DEFAULT_SCENARIO } from "../../simulator/scenario/default.ts";
import { CONTRACT_V2, HANDSHAKE_ENV, HANDSHAKE_VALUE } from "../contract/provider.ts";
import { harnessPaths } from "../paths.ts";
import { trackTempDir } from "../process/teardown.ts";
import { checkBinary, checkoutCommit, LaneInputError, laneFiles, linkedWorktree } from "./checkout.ts";
import { laneNodeModules } from "./lane-deps.ts";
import { LANES_REPORT_SCHEMA_ID, type LaneName, type LanesReport, type LaneTest } from "./report-schema.ts";
import { parseTap } from "./tap.ts";

/** What to run. */
export interface LanesOptions {
  readonly checkout: string;
  readonly lanes: readonly LaneName[];
  readonly profile: Profile;
  /** A gentle-ai binary (absolute path) to run the devbinary and maintainer lanes against instead of the simulator. */
  readonly binary?: string;
  /** Where the lanes' test dependencies are installed when the checkout has none. */
  readonly depsCache: string;
  /** Bound of one lane file's run (the test runner's whole process tree is killed past it). */
  readonly timeoutMs: number;
  /** Progress lines (stderr). */
  readonly log: (line: string) => void;
  /** Lane files (the positive lane counts one) run of the planned total, and the failing tests so far. */
  readonly onProgress?: (counts: { done: number; total: number; failed: number }) => void;
}

/** A shell-quoted word for the wrapper scripts (paths may hold spaces or quotes). */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The simulator's folder for one lanes run: scenarios, the `pi`/`gentle-ai` bin dir, the 2.3.0 baseline wrapper.
 * With a binary, it is the capable gentle-ai (and `gentle-ai` on PATH); the baseline and pi stay the simulator's.
 */
function simulatorHome(
  root: string,
  profile: Profile,
  binary: string | undefined,
): { env: Record<string, string>; capable: string; baseline: string } {
  const paths = harnessPaths();
  const capable = binary ?? paths.gentleAiSimulator;
  const bin = join(root, "bin");
  mkdirSync(bin);
  symlinkSync(paths.piSimulator, join(bin, "pi"));
  symlinkSync(capable, join(bin, "gentle-ai"));
  const scenario = join(root, "scenario.json");
  writeFileSync(scenario, JSON.stringify({ profile }));
  const baseline = join(bin, "gentle-ai-2.3.0");
  const preRelay = join(paths.root, "golden", "scenarios", "pre-relay-2.3.0.json");
  writeFileSync(
    baseline,
    `#!/bin/sh\n# gentle-ai 2.3.0 (pre-relay) for the maintainer lane's baseline: the simulator on its 2.3.0 scenario.\nGENTLE_AI_SIM_SCENARIO=${quote(preRelay)} GENTLE_AI_SIM_STATE=${quote(join(root, "baseline-state"))} exec ${quote(paths.gentleAiSimulator)} "$@"\n`,
    { mode: 0o755 },
  );
  const tmp = join(root, "tmp");
  mkdirSync(tmp);
  // On the built-in profile the lanes set no simulator variable at all, as gentle-pi's devtests call a real binary; a
  // real binary must not update itself in the middle of a lane.
  const own: Record<string, string> =
    binary !== undefined
      ? { GENTLE_AI_NO_SELF_UPDATE: "1" }
      : profile === DEFAULT_SCENARIO.profile
        ? {}
        : { GENTLE_AI_SIM_SCENARIO: scenario };
  return { capable, baseline, env: { PATH: `${bin}:${process.env.PATH ?? ""}`, TMPDIR: tmp, ...own } };
}

/** The caller's environment without simulator settings of its own (the lanes get ours). */
function baseEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !e[0].startsWith("GENTLE_AI_SIM_"),
    ),
  );
}

async function runTestFile(
  worktree: string,
  file: string,
  lane: LaneName,
  env: Record<string, string>,
  options: LanesOptions,
): Promise<LaneTest[]> {
  const run = await runChild(
    process.execPath,
    ["--import", harnessPaths().tsxLoader, "--test", "--test-reporter=tap", file],
    {
      cwd: worktree,
      env,
      timeoutMs: options.timeoutMs,
    },
  );
  const results = parseTap(run.stdout.toString("utf8"));
  const tests = results.map((r) => ({ lane, file, ...r }));
  if (run.timedOut || (tests.length === 0 && run.exitCode !== 0))
    tests.push({
      lane,
      file,
      name: run.timedOut
        ? `(the run passed its ${options.timeoutMs} ms bound)`
        : "(the test runner failed before any test)",
      status: "fail",
      durationMs: null,
      detail: Buffer.concat([run.stdout, run.stderr]).toString("utf8").trim().split("\n").slice(-3).join(" "),
    });
  return tests;
}

interface Slot {
  readonly name?: unknown;
  readonly arguments?: readonly { readonly token?: unknown; readonly name?: unknown; readonly value?: unknown }[];
  readonly submission?: {
    readonly operation_token?: unknown;
    readonly argument_tokens?: unknown;
    readonly value?: { readonly slot?: unknown; readonly domain?: unknown; readonly substitution_location?: unknown };
  };
}

/** One armed positive lens case of the maintainer descriptor, built from a STATUS slot. */
interface PositiveCase {
  readonly name: string;
  readonly kind: string;
  readonly captureArgumentTokens: unknown[];
  readonly submission: {
    readonly operationToken: unknown;
    readonly argumentTokens: unknown;
    readonly values: readonly {
      readonly slot: unknown;
      readonly domain: unknown;
      readonly substitutionLocation: unknown;
    }[];
  };
}

/** The maintainer matrix's positive lens cases, one per slot the simulator's STATUS offers pi. */
async function runPositiveLane(
  worktree: string,
  env: Record<string, string>,
  capable: string,
  options: LanesOptions,
): Promise<LaneTest[]> {
  const file = laneFiles(worktree, "positive")[0]!;
  const home = mkdtempSync(join(env.TMPDIR!, "positive-"));
  const scenario = join(home, "scenario.json");
  // A scenario-pinned lineage in `reviewing`: the live review session the positive journey needs.
  writeFileSync(scenario, JSON.stringify({ profile: options.profile, lineage: { state: "reviewing" } }));
  const laneEnv = { ...env, GENTLE_AI_SIM_SCENARIO: scenario, GENTLE_AI_SIM_STATE: join(home, "state") };
  const { slots, stdout } = await offeredSlots(worktree, laneEnv, capable, options);
  if (slots.length === 0)
    return [
      {
        lane: "positive",
        file,
        name: "(STATUS offered no pi slot with a submission form)",
        status: "fail",
        durationMs: null,
        detail: stdout.slice(0, 300),
      },
    ];
  const cases = slots.map(positiveCase);
  const descriptor = join(home, "descriptor.json");
  writeFileSync(
    descriptor,
    JSON.stringify({
      schema: "gentle-pi.maintainer.provider-relay-descriptor/v1",
      gentleAiExecutable: capable,
      piExecutable: "pi",
      cases,
    }),
  );
  const started = Date.now();
  const run = await runChild(
    process.execPath,
    ["--import", harnessPaths().tsxLoader, file, "--descriptor", descriptor],
    {
      cwd: worktree,
      env: { ...laneEnv, GENTLE_PI_MAINTAINER_ARM_POSITIVE: "1" },
      timeoutMs: options.timeoutMs,
    },
  );
  return caseResults(file, cases, run, started);
}

/** The pi slots with a submission form that the simulator's STATUS offers, and its stdout. */
async function offeredSlots(
  worktree: string,
  laneEnv: Record<string, string>,
  capable: string,
  options: LanesOptions,
): Promise<{ slots: Slot[]; stdout: string }> {
  const status = await runChild(
    capable,
    ["review", "status", "--cwd", worktree, "--contract", CONTRACT_V2, "--agent", "pi", "--next-transition"],
    {
      cwd: process.cwd(),
      env: { ...laneEnv, [HANDSHAKE_ENV]: HANDSHAKE_VALUE },
      timeoutMs: options.timeoutMs,
    },
  );
  let slots: Slot[] = [];
  try {
    const doc = JSON.parse(status.stdout.toString("utf8")) as { next_transition?: { collect?: { inputs?: Slot[] } } };
    slots = (doc.next_transition?.collect?.inputs ?? []).filter((s) => s.submission !== undefined);
  } catch {
    // STATUS printed no JSON: no slot was offered.
  }
  return { slots, stdout: status.stdout.toString("utf8") };
}

function positiveCase(slot: Slot, i: number): PositiveCase {
  const lens = slot.arguments?.find((a) => a.name === "lens")?.value;
  const value = slot.submission!.value ?? {};
  return {
    name: `positive-lens ${typeof lens === "string" ? lens : `#${i}`}`,
    kind: "positive-lens",
    captureArgumentTokens: (slot.arguments ?? []).map((a) => a.token),
    submission: {
      operationToken: slot.submission!.operation_token,
      argumentTokens: slot.submission!.argument_tokens,
      values: [{ slot: value.slot, domain: value.domain, substitutionLocation: value.substitution_location }],
    },
  };
}

/** Each case's verdict from the JSON lines the lane file printed (a case without one fails), timed from `started`. */
function caseResults(
  file: string,
  cases: readonly PositiveCase[],
  run: { readonly stdout: Buffer; readonly stderr: Buffer; readonly exitCode: number | null },
  started: number,
): LaneTest[] {
  const verdicts = run.stdout
    .toString("utf8")
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { name?: unknown; verdict?: unknown; reason?: unknown });
  const durationMs = Date.now() - started;
  return cases.map((c) => {
    const v = verdicts.find((x) => x.name === c.name);
    const pass = v?.verdict === "pass";
    const detail =
      v === undefined
        ? `no verdict (exit ${run.exitCode}): ${run.stderr.toString("utf8").trim().slice(0, 300)}`
        : pass
          ? ""
          : `${String(v.verdict)}: ${String(v.reason ?? "")}`;
    return {
      lane: "positive" as const,
      file,
      name: c.name,
      status: pass ? ("pass" as const) : ("fail" as const),
      durationMs,
      detail,
    };
  });
}

/**
 * Runs the chosen lanes of a gentle-pi checkout against the simulator (or a binary); throws LaneInputError on bad
 * input.
 */
export async function runUpstreamLanes(options: LanesOptions): Promise<LanesReport> {
  if (options.binary !== undefined) {
    checkBinary(options.binary);
    if (options.lanes.includes("positive"))
      throw new LaneInputError(
        "--lane positive cannot run with --binary: it needs the simulator's pinned review session",
      );
  }
  const commit = await checkoutCommit(options.checkout);
  for (const lane of options.lanes) laneFiles(options.checkout, lane);
  const nodeModules = await laneNodeModules(options.checkout, options.depsCache, options.log);
  const root = mkdtempSync(join(tmpdir(), "relay-conformance-lane-sim-"));
  const untrack = trackTempDir(root);
  const worktree = await linkedWorktree(options.checkout, commit);
  const tests: LaneTest[] = [];
  try {
    symlinkSync(nodeModules, join(worktree.path, "node_modules"));
    const sim = simulatorHome(root, options.profile, options.binary);
    const env = {
      ...baseEnv(),
      ...sim.env,
      GENTLE_AI_DEV_BINARY: sim.capable,
      GENTLE_PI_GENTLE_AI_DEV_BINARY: sim.capable,
      GENTLE_PI_REQUIRE_DEV_BINARY: "1",
      GENTLE_PI_MAINTAINER_BASELINE_BINARY: sim.baseline,
      GENTLE_PI_MAINTAINER_CAPABLE_BINARY: sim.capable,
      GENTLE_PI_REQUIRE_MAINTAINER: "1",
    };
    const total = options.lanes.reduce(
      (n, lane) => n + (lane === "positive" ? 1 : laneFiles(worktree.path, lane).length),
      0,
    );
    let done = 0;
    const tally = (): void =>
      options.onProgress?.({ done, total, failed: tests.filter((t) => t.status === "fail").length });
    tally();
    for (const lane of options.lanes) {
      if (lane === "positive") {
        options.log(`upstream-lanes: ${lane}: the maintainer matrix's armed positive lens cases`);
        tests.push(...(await runPositiveLane(worktree.path, env, sim.capable, options)));
        done += 1;
        tally();
        continue;
      }
      for (const file of laneFiles(worktree.path, lane)) {
        options.log(`upstream-lanes: ${lane}: ${file}`);
        tests.push(...(await runTestFile(worktree.path, file, lane, env, options)));
        done += 1;
        tally();
      }
    }
  } finally {
    await worktree.remove();
    rmSync(root, { recursive: true, force: true });
    untrack();
  }
  const count = (s: LaneTest["status"]): number => tests.filter((t) => t.status === s).length;
  return {
    schema: LANES_REPORT_SCHEMA_ID,
    checkout: options.checkout,
    commit,
    ...(options.binary === undefined ? { profile: options.profile } : { binary: options.binary }),
    lanes: [...options.lanes],
    tests,
    summary: { passed: count("pass"), failed: count("fail"), skipped: count("skip") },
  };
}
