// The subcommand registry, in the order the top-level help lists them. A new command: add its entry here.
// Each command's module is imported when the command runs, not before: the CLI bundle splits along these imports,
// so `run` starts without loading release's, fidelity's or repro's code (ajv and the full zod among them), and
// `--help` loads none of it.
import type { Command } from "./cli/command.ts";

/** A registered subcommand: the top-level help's name and summary, and its module, loaded on use. */
export interface CommandEntry {
  readonly name: string;
  /** One line for the top-level help. */
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "run",
    summary: "run the clause catalogue against a relay module",
    load: async () => (await import("./runner/command.ts")).runCommand,
  },
  {
    name: "matrix",
    summary: "relays × profiles pass/fail table",
    load: async () => (await import("./matrix/command.ts")).matrixCommand,
  },
  {
    name: "replay",
    summary: "re-run saved files (counterexamples, goldens), dispatched on their `schema` field",
    load: async () => (await import("./replay/command.ts")).replayCommand,
  },
  {
    name: "list",
    summary: "list the clause catalogue (ID, profiles, source, statement)",
    load: async () => (await import("./clauses/command.ts")).listCommand,
  },
  {
    name: "record",
    summary: "record a golden through a pass-through shim in front of any gentle-ai binary, driven by the relay",
    load: async () => (await import("./record/command.ts")).recordCommand,
  },
  {
    name: "verify",
    summary: "probe any gentle-ai binary (simulator or release) for drift from the provider contract and the goldens",
    load: async () => (await import("./verify/command.ts")).verifyCommand,
  },
  {
    name: "diff",
    summary:
      "run a scenario corpus against a gentle-ai build and the simulator, and compare their bytes (the verified fake)",
    load: async () => (await import("./diff/command.ts")).diffCommand,
  },
  {
    name: "fidelity",
    summary: "check every document the simulator prints against a gentle-ai tree's published JSON Schemas",
    load: async () => (await import("./fidelity/command.ts")).fidelityCommand,
  },
  {
    name: "upstream-lanes",
    summary: "run gentle-pi's own devbinary and maintainer lanes with the simulator (or --binary) as their gentle-ai",
    load: async () => (await import("./upstream-lanes/command.ts")).upstreamLanesCommand,
  },
  {
    name: "release",
    summary:
      "download a gentle-ai GitHub release, verify its checksum before unpacking, then verify the binary (and its published contract)",
    load: async () => (await import("./release/command.ts")).releaseCommand,
  },
  {
    name: "repro",
    summary: "run an issue reproduction (golden/repro/*.txtar) step by step; --list shows the shipped ones",
    load: async () => (await import("./repro/command.ts")).reproCommand,
  },
  {
    name: "mutate",
    summary: "mutation testing: how many mutants of a relay (StrykerJS's instrumenter) the clause catalogue kills",
    load: async () => (await import("./mutate/command.ts")).mutateCommand,
  },
  {
    name: "merge-reports",
    summary: "merge the --json reports of a `run --shard i/n` matrix into the unsharded run's report",
    load: async () => (await import("./report/command.ts")).mergeReportsCommand,
  },
];
