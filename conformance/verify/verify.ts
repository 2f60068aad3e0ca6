import { constants, mkdtempSync } from "node:fs";
import { access, mkdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { firstDivergence, renderDivergence } from "../goldens/diff.ts";
import { readGolden, shippedGoldens } from "../goldens/golden-file.ts";
import { paths } from "../goldens/paths.ts";
import { recordGolden } from "../record/record.ts";
import { goldenScript } from "../replay/golden-replay.ts";
import { runBinary, type ProbeCall } from "./exec.ts";
import type { ProbeContext } from "./probe-kit.ts";
import { HANDSHAKE_ENV } from "./expected-texts.ts";
import { trackTempDir } from "../process/teardown.ts";
import { outputDisciplineFindings, PROBES } from "./probes.ts";
import { parseVersionOutput, profileOfVersion, type Profile } from "../cli/profile.ts";
import { VERIFY_REPORT_SCHEMA_ID, type GoldenCheck, type ProbeResult, type VerifyReport } from "./report-schema.ts";

/** Bad input to verify (exit 2): missing binary, unknown profile, underivable version. */
export class VerifyInputError extends Error {
  override readonly name = "VerifyInputError";
}

/** What to verify and against which contract. */
export interface VerifyOptions {
  readonly binary: string;
  /** Expected contract profile; default: derived from the binary's `version` output. */
  readonly profile?: Profile;
  /** Caller environment, passed through to the binary (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** Folder the caller's relative GENTLE_AI_SIM_* paths are relative to (default process.cwd()). */
  readonly callerCwd?: string;
  /** Repository the probes run in (default: a fresh temp dir). */
  readonly cwd?: string;
  /** Golden files to compare a simulator-compatible binary against (default: every shipped golden). */
  readonly goldens?: readonly string[];
  /** Relay used to drive golden conversations (default ours). */
  readonly relayModule?: string;
  /** Called as the report forms: header, each probe, the golden decision, each golden (progress output). */
  readonly onProgress?: (event: VerifyProgress) => void;
}

/** One step of a verification, in report order. */
export type VerifyProgress =
  | {
      readonly kind: "start";
      readonly binary: string;
      readonly versionOutput: string;
      readonly profile: Profile;
      readonly profileSource: "version" | "flag";
    }
  | { readonly kind: "probe"; readonly probe: ProbeResult }
  | { readonly kind: "goldens"; readonly simulator: boolean }
  | { readonly kind: "golden"; readonly check: GoldenCheck };

async function executable(path: string): Promise<void> {
  try {
    const st = await stat(path);
    if (!st.isFile()) throw new VerifyInputError(`--binary ${path} is not a file`);
    await access(path, constants.X_OK);
  } catch (error) {
    if (error instanceof VerifyInputError) throw error;
    throw new VerifyInputError(
      `--binary ${path} is not an executable file (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`,
    );
  }
}

/**
 * True when the binary honours GENTLE_AI_SIM_TRANSCRIPT: goldens pin simulator identities, so only then do they apply.
 */
async function isSimulator(binary: string, cwd: string, env: NodeJS.ProcessEnv, scratch: string): Promise<boolean> {
  const transcript = join(scratch, "detect.jsonl");
  await runBinary(binary, ["version"], { cwd, env: { ...env, GENTLE_AI_SIM_TRANSCRIPT: transcript } });
  return (await readFile(transcript).catch(() => Buffer.alloc(0))).length > 0;
}

async function goldenChecks(options: VerifyOptions, binary: string, profile: Profile): Promise<GoldenCheck[]> {
  const done = (check: GoldenCheck): void => {
    checks.push(check);
    options.onProgress?.({ kind: "golden", check });
  };
  const checks: GoldenCheck[] = [];
  for (const path of options.goldens ?? shippedGoldens()) {
    const golden = readGolden(path);
    if (golden.source.kind !== "simulator" || golden.profile !== profile) continue;
    const { golden: fresh } = await recordGolden({
      repro: goldenScript(path, golden),
      name: golden.name,
      binary,
      source: "simulator",
      profile,
      against: options.relayModule ?? paths.ourRelay(),
      goldenDir: dirname(path),
    });
    const d = firstDivergence(golden, fresh);
    done(
      d === undefined
        ? { golden: golden.name, status: "pass" }
        : { golden: golden.name, status: "drift", diff: renderDivergence(golden.name, d) },
    );
  }
  return checks;
}

// The simulator's path variables, as the caller meant them: relative to the caller's cwd, not to the probe's.
const SIM_PATH_VARIABLES = [
  "GENTLE_AI_SIM_SCENARIO",
  "GENTLE_AI_SIM_STATE",
  "GENTLE_AI_SIM_TRANSCRIPT",
  "GENTLE_AI_SIM_REPLAY",
];

/** A copy of the caller's environment whose GENTLE_AI_SIM_* paths are absolute, since probes run in another cwd. */
function withAbsoluteSimPaths(callerEnv: NodeJS.ProcessEnv, callerCwd: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...callerEnv };
  for (const name of SIM_PATH_VARIABLES) {
    const value = env[name];
    if (value) env[name] = resolve(callerCwd, value);
  }
  return env;
}

/** Runs the probe suite (and, for a simulator, the matching goldens) against a binary. */
export async function verifyBinary(options: VerifyOptions): Promise<VerifyReport> {
  const binary = resolve(options.binary);
  await executable(binary);
  const callerEnv = options.env ?? process.env;
  // Sync: the folder is tracked for an interruption in the same tick it comes to exist.
  const dir = mkdtempSync(join(tmpdir(), "relay-conformance-verify-"));
  const untrack = trackTempDir(dir);
  try {
    const scratch = join(dir, "scratch");
    const cwd = options.cwd === undefined ? join(dir, "repo") : resolve(options.cwd);
    await mkdir(scratch);
    await mkdir(cwd, { recursive: true });
    const env = withAbsoluteSimPaths(callerEnv, options.callerCwd ?? process.cwd());
    // A simulator keeps its lineage here; a caller-provided state dir is respected.
    if (!env.GENTLE_AI_SIM_STATE) env.GENTLE_AI_SIM_STATE = join(dir, "state");
    const calls: ProbeCall[] = [];
    const call = probeCaller(binary, cwd, env, calls);
    const { versionOutput, profile, profileSource } = await expectedProfile(binary, cwd, env, options.profile);
    options.onProgress?.({ kind: "start", binary, versionOutput, profile, profileSource });
    const probes = await runProbes(options, { profile, cwd, scratch, call }, calls);
    const simulator = await isSimulator(binary, cwd, env, scratch);
    options.onProgress?.({ kind: "goldens", simulator });
    const goldens = simulator ? await goldenChecks(options, binary, profile) : [];
    const drift = probes.some((p) => p.status === "drift") || goldens.some((g) => g.status === "drift");
    return {
      schema: VERIFY_REPORT_SCHEMA_ID,
      binary,
      versionOutput,
      profile,
      profileSource,
      simulator,
      drift,
      probes,
      goldens,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
    untrack();
  }
}

/** ProbeContext.call: runs the binary with the handshake as asked, keeping every call for the output discipline. */
function probeCaller(binary: string, cwd: string, env: NodeJS.ProcessEnv, calls: ProbeCall[]): ProbeContext["call"] {
  return async (argv, o = {}) => {
    const e = { ...env };
    if (o.handshake === undefined || o.handshake === null) delete e[HANDSHAKE_ENV];
    else e[HANDSHAKE_ENV] = o.handshake;
    const c = await runBinary(binary, argv, { cwd, env: e, ...(o.input ? { input: o.input } : {}) });
    calls.push(c);
    return c;
  };
}

/** The contract profile to expect: --profile, else the one the binary's `version` output names. */
async function expectedProfile(
  binary: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  flagged: Profile | undefined,
): Promise<{ versionOutput: string; profile: Profile; profileSource: "version" | "flag" }> {
  const versionCall = await runBinary(binary, ["version"], { cwd, env });
  const versionOutput = versionCall.stdout.toString("utf8");
  const version = parseVersionOutput(versionOutput);
  const derived = version === undefined ? undefined : profileOfVersion(version);
  const profile = flagged ?? derived;
  if (profile === undefined) {
    throw new VerifyInputError(
      `cannot derive the contract profile from \`${binary} version\` output ${JSON.stringify(versionOutput)}; pass --profile`,
    );
  }
  return { versionOutput, profile, profileSource: flagged === undefined ? "version" : "flag" };
}

/** Every probe in order (a probe that throws is inconclusive), then the output discipline over all their calls. */
async function runProbes(
  options: VerifyOptions,
  context: ProbeContext,
  calls: readonly ProbeCall[],
): Promise<ProbeResult[]> {
  const probes: ProbeResult[] = [];
  const probed = (result: ProbeResult): void => {
    probes.push(result);
    options.onProgress?.({ kind: "probe", probe: result });
  };
  for (const probe of PROBES) {
    let verdict;
    try {
      verdict = await probe.run(context);
    } catch (error) {
      verdict = { status: "inconclusive" as const, findings: [`probe failed to run: ${(error as Error).message}`] };
    }
    probed({ id: probe.id, clause: probe.clause, ...verdict });
  }
  const discipline = outputDisciplineFindings(calls);
  probed({
    id: "output-discipline",
    clause: "§3 every probe call: exit 0 or 1; failure stderr one `Error: …` line; success stderr empty",
    status: discipline.length === 0 ? "pass" : "drift",
    findings: discipline,
  });
  return probes;
}

/** The console lines of one step (the report is these, in order, then verifyResultText). */
export function verifyProgressText(event: VerifyProgress): string {
  const lines: string[] = [];
  if (event.kind === "start") {
    lines.push(`verify ${event.binary}`);
    lines.push(
      `  version: ${JSON.stringify(event.versionOutput)}; expected contract: profile ${event.profile} (from ${event.profileSource === "flag" ? "--profile" : "version"})`,
    );
  } else if (event.kind === "probe") {
    const p = event.probe;
    lines.push(`  ${p.status === "drift" ? "DRIFT" : p.status.padEnd(5)}  ${p.id}  ${p.clause}`);
    for (const f of p.findings) lines.push(`         - ${f}`);
  } else if (event.kind === "goldens") {
    if (!event.simulator)
      lines.push(
        "  goldens: not compared (goldens pin simulator identities; record goldens from this binary with `record`)",
      );
  } else {
    const g = event.check;
    lines.push(`  ${g.status === "drift" ? "DRIFT" : g.status.padEnd(5)}  golden ${g.golden}`);
    if (g.diff) lines.push(...g.diff.split("\n").map((l) => `         ${l}`));
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

/** The last line: `result: no drift` or `result: DRIFT (n checks)`. */
export function verifyResultText(report: VerifyReport): string {
  const driftCount =
    report.probes.filter((p) => p.status === "drift").length +
    report.goldens.filter((g) => g.status === "drift").length;
  return `${report.drift ? `result: DRIFT (${driftCount} check${driftCount === 1 ? "" : "s"})` : "result: no drift"}\n`;
}

/** The report as events, in order. */
function reportEvents(report: VerifyReport): VerifyProgress[] {
  return [
    {
      kind: "start",
      binary: report.binary,
      versionOutput: report.versionOutput,
      profile: report.profile,
      profileSource: report.profileSource,
    },
    ...report.probes.map((probe) => ({ kind: "probe" as const, probe })),
    { kind: "goldens", simulator: report.simulator },
    ...report.goldens.map((check) => ({ kind: "golden" as const, check })),
  ];
}

/** Console rendering of a report. */
export function renderVerifyReport(report: VerifyReport): string {
  return `${reportEvents(report).map(verifyProgressText).join("")}${verifyResultText(report)}`;
}

/** The --quiet rendering: the header, only drifted or inconclusive checks (with their findings), the result line. */
export function renderQuietVerifyReport(report: VerifyReport): string {
  const shown = reportEvents(report).filter((e) =>
    e.kind === "probe"
      ? e.probe.status === "drift" || e.probe.status === "inconclusive"
      : e.kind === "golden"
        ? e.check.status !== "pass"
        : true,
  );
  return `${shown.map(verifyProgressText).join("")}${verifyResultText(report)}`;
}
