import { resolve } from "node:path";
import { UsageError, type Command, type CommandIo } from "../cli/command.ts";
import { HELP_OPTION, outputFileOption, parseCount, parseOptions, type OptionTable } from "../cli/options.ts";
import { HELP_WIDTH, usageText, wrap } from "../cli/usage.ts";
import { laneProgress, scenarioOption } from "../fidelity/command.ts";
import { ContractsTreeError } from "../fidelity/contracts-tree.ts";
import { renderFidelityReport } from "../fidelity/fidelity.ts";
import type { SweepScenario } from "../fidelity/sweep.ts";
import { writeReportFile } from "../cli/write-report.ts";
import { emitVerifyReport, profileOption } from "../verify/command.ts";
import type { VerifyReport } from "../verify/report-schema.ts";
import { renderVerifyReport, VerifyInputError, verifyBinary } from "../verify/verify.ts";
import { checkReleaseContracts, fetchReleaseContracts, type ReleaseContracts } from "./contracts.ts";
import { ReleaseError, RELEASE_FAILURE } from "./errors.ts";
import {
  defaultCacheDir,
  hostPlatform,
  installRelease,
  RELEASE_ARCH,
  RELEASE_OS,
  type InstalledRelease,
  type ReleaseArch,
  type ReleaseOs,
} from "./install.ts";
import { RELEASE_REPORT_SCHEMA_ID, type ReleaseCause, type ReleaseReport } from "./report-schema.ts";

function pick<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T | undefined,
): T {
  const v = value ?? fallback;
  if (v === undefined) throw new UsageError(`--${name} is required on this platform (one of ${allowed.join(", ")})`);
  if (!(allowed as readonly string[]).includes(v))
    throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(v)}`);
  return v as T;
}

/** The two verdict lines `release --contracts` can give; both when both failed. */
export const RELEASE_CAUSE_TEXT = {
  binaryDrift: (profile: string): string => `binary drifted from profile ${profile}`,
  contractChanged: "published contract changed: simulator needs updating",
} as const;

/** Runs `fn`, turning a ReleaseError into its one stderr line and exit code. */
async function orReleaseExit<T>(io: CommandIo, fn: () => Promise<T>): Promise<T | number> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    io.stderr(`relay-conformance release: ${error.code}: ${error.message}\n`);
    return error.exitCode;
  }
}

/** The fidelity half of `--contracts`, the verdict lines and the release report; returns the exit code. */
async function judgeContracts(
  installed: InstalledRelease,
  contracts: ReleaseContracts,
  verify: VerifyReport,
  sweep: { scenarios: SweepScenario[]; concurrency: number; json: string | undefined },
  io: CommandIo,
): Promise<number> {
  io.stdout(renderVerifyReport(verify));
  let fidelity;
  try {
    fidelity = await checkReleaseContracts(contracts, {
      profiles: [verify.profile],
      scenarios: sweep.scenarios,
      concurrency: sweep.concurrency,
      onLane: laneProgress(io),
    });
  } catch (error) {
    if (error instanceof ContractsTreeError) throw new UsageError(`${installed.tag}'s contracts: ${error.message}`);
    throw error;
  }
  io.stdout(renderFidelityReport(fidelity));
  const causes: ReleaseCause[] = [];
  if (verify.drift) causes.push({ cause: "binary-drift", message: RELEASE_CAUSE_TEXT.binaryDrift(verify.profile) });
  if (fidelity.verdict === "invalid")
    causes.push({ cause: "contract-changed", message: RELEASE_CAUSE_TEXT.contractChanged });
  io.stdout(
    causes.length === 0
      ? `verdict: pass: the binary matches profile ${verify.profile} and the simulator matches ${installed.tag}'s published contract\n`
      : causes.map((c) => `verdict: ${c.message}\n`).join(""),
  );
  if (sweep.json !== undefined) {
    const report: ReleaseReport = {
      schema: RELEASE_REPORT_SCHEMA_ID,
      tag: installed.tag,
      binary: {
        asset: installed.asset,
        archiveSha256: installed.archiveSha256,
        binarySha256: installed.binarySha256,
        path: installed.binaryPath,
      },
      source: contracts.source,
      verify,
      contracts: fidelity,
      causes,
      verdict: causes.length === 0 ? "pass" : "fail",
    };
    writeReportFile(sweep.json, `${JSON.stringify(report, null, 2)}\n`);
  }
  return causes.length === 0 ? 0 : 1;
}

/** The download's failure exit codes, a line break only between two codes (`20 source-mismatch` stays whole). */
function failureCodeLines(): string {
  const lines: string[] = [];
  for (const [name, code] of Object.entries(RELEASE_FAILURE).filter(([, c]) => c > 2)) {
    const entry = `${code} ${name}`;
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + entry.length + 2 <= HELP_WIDTH - 2) lines[last] += `, ${entry}`;
    else lines.push(entry);
  }
  return lines.map((l, i) => `  ${l}${i === lines.length - 1 ? "." : ","}`).join("\n");
}

const RELEASE_OPTIONS = {
  os: {
    type: "string",
    valueName: RELEASE_OS.join("|"),
    description: "the release's operating system",
    default: "this machine's",
  },
  arch: {
    type: "string",
    valueName: RELEASE_ARCH.join("|"),
    description: "the release's architecture",
    default: "this machine's",
  },
  cache: {
    type: "string",
    valueName: "dir",
    description: "where releases are installed",
    default: "${XDG_CACHE_HOME:-~/.cache}/gentle-relay-conformance/releases",
  },
  profile: {
    type: "string",
    valueName: "p",
    description: "expected contract for `verify`",
    default: "derived from the binary's `version`",
  },
  json: {
    type: "string",
    valueName: "file",
    description:
      "the verify report (schemas/verify-report.schema.json); with --contracts, the release report holding it and the fidelity report (schemas/release-report.schema.json)",
  },
  "no-goldens": { type: "boolean", description: "skip the golden comparison" },
  contracts: { type: "boolean", description: "also download and check the tag's contracts/ tree (above)" },
  scenario: {
    type: "string",
    multiple: true,
    valueName: "name",
    description: "with --contracts: only this shipped scenario (repeatable; default all)",
  },
  concurrency: {
    type: "string",
    valueName: "n",
    description: "with --contracts: scenario lanes in flight",
    default: "2",
  },
  help: HELP_OPTION,
} as const satisfies OptionTable;

export const releaseCommand: Command = {
  usage: usageText({
    synopsis: [
      "relay-conformance release <tag> [--os linux|darwin] [--arch amd64|arm64] [--cache <dir>] [--profile <p>] [--json <file>] [--no-goldens]",
      "                                [--contracts [--scenario <name>] [--concurrency N]]",
    ],
    about: `Finds the release through the GitHub REST API (GITHUB_TOKEN is sent when set), downloads
gentle-ai_<version>_<os>_<arch>.tar.gz and checksums.txt, checks the archive's sha256 against checksums.txt before
unpacking anything, installs gentle-ai (mode 0755) under <cache>/<tag>/<os>_<arch>/, then runs \`verify\` on it.

--contracts also checks the tag's published contract: it resolves the tag to its commit (git/ref/tags/<tag>, through
an annotated tag object), lists that commit's contracts/ blobs (git/trees), downloads the source tarball of the
commit (/tarball/<commit>, redirected to codeload) and refuses it unless its pax header names that commit and every
contracts/ file matches the commit's git blob id (no more, no fewer). GitHub publishes no digest for source
tarballs: their sha256 is recorded in the report, not compared. Only contracts/ is extracted (regular files; an
absolute or .. path anywhere, or a link in contracts/, refuses the archive), into a temp folder always removed, and
\`fidelity\` runs on it in the profile verify checked. The verdict names each failure:
  "binary drifted from profile <p>"                        verify found drift
  "published contract changed: simulator needs updating"   a simulator document fails the tag's schemas`,
    options: RELEASE_OPTIONS,
    footer: `${wrap("Exit codes: 0 verified, no drift (and, with --contracts, the contract unchanged); 1 drift or a changed contract, or both; 2 bad input; and one for each failure of the download:")}
${failureCodeLines()}`,
  }),
  async run(args, io) {
    if (args.includes("--help") || args.includes("-h")) {
      io.stdout(this.usage);
      return 0;
    }
    const { values, positionals } = parseOptions(args, RELEASE_OPTIONS, true);
    if (positionals.length !== 1) throw new UsageError("release needs exactly one tag, e.g. `release v2.4.0`");
    if (!values.contracts && (values.scenario !== undefined || values.concurrency !== undefined)) {
      throw new UsageError("--scenario and --concurrency only apply with --contracts");
    }
    const host = hostPlatform();
    const os = pick<ReleaseOs>("os", values.os, RELEASE_OS, host.os);
    const arch = pick<ReleaseArch>("arch", values.arch, RELEASE_ARCH, host.arch);
    const profile = profileOption(values.profile);
    const scenarios = values.contracts ? scenarioOption(values.scenario) : [];
    const concurrency = parseCount("concurrency", values.concurrency, 2, 1);
    const json = outputFileOption(io.cwd, "json", values.json);
    const tag = positionals[0]!;
    const token = process.env.GITHUB_TOKEN || undefined;
    const installed = await orReleaseExit(io, () =>
      installRelease({
        tag,
        os,
        arch,
        cacheDir: values.cache === undefined ? defaultCacheDir() : resolve(io.cwd, values.cache),
        token,
      }),
    );
    if (typeof installed === "number") return installed;
    io.stdout(`release ${installed.tag}: ${installed.asset} sha256 ${installed.archiveSha256} matches checksums.txt\n`);
    io.stdout(`installed ${installed.binaryPath} (sha256 ${installed.binarySha256})\n`);
    // The source is fetched and checked before the slow verify run, so a refused tarball fails fast.
    let contracts: ReleaseContracts | undefined;
    if (values.contracts) {
      const fetched = await orReleaseExit(io, () => fetchReleaseContracts(tag, { token }));
      if (typeof fetched === "number") return fetched;
      contracts = fetched;
      const { source } = contracts;
      io.stdout(
        `source ${tag}: commit ${source.commit}, tarball sha256 ${source.tarballSha256} (recorded); ${source.contractsFiles} contracts/ files match the commit's git blob ids\n`,
      );
    }
    let report;
    try {
      report = await verifyBinary({
        binary: installed.binaryPath,
        ...(profile ? { profile } : {}),
        ...(values["no-goldens"] ? { goldens: [] } : {}),
      });
    } catch (error) {
      if (error instanceof VerifyInputError) throw new UsageError(error.message);
      throw error;
    }
    if (contracts === undefined) return await emitVerifyReport(report, values.json, io);
    return await judgeContracts(installed, contracts, report, { scenarios, concurrency, json }, io);
  },
};
