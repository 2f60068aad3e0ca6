import { resolve } from "node:path";
import { UsageError, type Command } from "../cli/command.ts";
import { HELP_OPTION, parseOptions, type OptionTable } from "../cli/options.ts";
import { usageText, wrap } from "../cli/usage.ts";
import { emitVerifyReport, profileOption } from "../verify/command.ts";
import { VerifyInputError, verifyBinary } from "../verify/verify.ts";
import { ReleaseError, RELEASE_FAILURE } from "./errors.ts";
import { defaultCacheDir, hostPlatform, installRelease, RELEASE_ARCH, RELEASE_OS, type ReleaseArch, type ReleaseOs } from "./install.ts";

function pick<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T | undefined): T {
  const v = value ?? fallback;
  if (v === undefined) throw new UsageError(`--${name} is required on this platform (one of ${allowed.join(", ")})`);
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(v)}`);
  return v as T;
}

const RELEASE_OPTIONS = {
  os: { type: "string", valueName: RELEASE_OS.join("|"), description: "the release's operating system", default: "this machine's" },
  arch: { type: "string", valueName: RELEASE_ARCH.join("|"), description: "the release's architecture", default: "this machine's" },
  cache: { type: "string", valueName: "dir", description: "where releases are installed", default: "${XDG_CACHE_HOME:-~/.cache}/gentle-relay-conformance/releases" },
  profile: { type: "string", valueName: "p", description: "expected contract for `verify`", default: "derived from the binary's `version`" },
  json: { type: "string", valueName: "file", description: "also write the verify report as JSON (schemas/verify-report.schema.json)" },
  "no-goldens": { type: "boolean", description: "skip the golden comparison" },
  help: HELP_OPTION,
} as const satisfies OptionTable;

export const releaseCommand: Command = {
  name: "release",
  summary: "download a gentle-ai GitHub release, verify its checksum before unpacking, then verify the binary",
  usage: usageText({
    synopsis: ["relay-conformance release <tag> [--os linux|darwin] [--arch amd64|arm64] [--cache <dir>] [--profile <p>] [--json <file>] [--no-goldens]"],
    about: `Finds the release through the GitHub REST API (GITHUB_TOKEN is sent when set), downloads
gentle-ai_<version>_<os>_<arch>.tar.gz and checksums.txt, checks the archive's sha256 against checksums.txt before
unpacking anything, installs gentle-ai (mode 0755) under <cache>/<tag>/<os>_<arch>/, then runs \`verify\` on it.`,
    options: RELEASE_OPTIONS,
    footer: wrap(`Exit codes: 0 verified, no drift; 1 drift; 2 bad input; ${Object.entries(RELEASE_FAILURE)
      .filter(([, c]) => c > 2)
      .map(([k, c]) => `${c} ${k}`)
      .join(", ")}.`),
  }),
  async run(args, io) {
    if (args.includes("--help") || args.includes("-h")) {
      io.stdout(this.usage);
      return 0;
    }
    const { values, positionals } = parseOptions(args, RELEASE_OPTIONS, true);
    if (positionals.length !== 1) throw new UsageError("release needs exactly one tag, e.g. `release v2.4.0`");
    const host = hostPlatform();
    const os = pick<ReleaseOs>("os", values.os, RELEASE_OS, host.os);
    const arch = pick<ReleaseArch>("arch", values.arch, RELEASE_ARCH, host.arch);
    const profile = profileOption(values.profile);
    let installed;
    try {
      installed = await installRelease({
        tag: positionals[0]!,
        os,
        arch,
        cacheDir: values.cache === undefined ? defaultCacheDir() : resolve(io.cwd, values.cache),
        token: process.env.GITHUB_TOKEN || undefined,
      });
    } catch (error) {
      if (!(error instanceof ReleaseError)) throw error;
      io.stderr(`relay-conformance release: ${error.code}: ${error.message}\n`);
      return error.exitCode;
    }
    io.stdout(`release ${installed.tag}: ${installed.asset} sha256 ${installed.archiveSha256} matches checksums.txt\n`);
    io.stdout(`installed ${installed.binaryPath} (sha256 ${installed.binarySha256})\n`);
    try {
      const report = await verifyBinary({
        binary: installed.binaryPath,
        ...(profile ? { profile } : {}),
        ...(values["no-goldens"] ? { goldens: [] } : {}),
      });
      return await emitVerifyReport(report, values.json, io);
    } catch (error) {
      if (error instanceof VerifyInputError) throw new UsageError(error.message);
      throw error;
    }
  },
};
