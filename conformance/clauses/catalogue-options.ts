// The catalogue selection and budget options `run`, `matrix` and `mutate` share, their defaults, and a run's exit
// code: one home below the commands that use them.
import { CATALOGUE, selectClauses } from "./index.ts";
import type { Clause } from "./types.ts";
import type { Profile } from "../../simulator/scenario/schema.ts";
import { UsageError } from "../cli/command.ts";
import { parseCount, parseGrep, parseProfiles, type OptionTable } from "../cli/options.ts";

export const DEFAULT_RUNS = 4;
export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_CONCURRENCY = 2;
/** Exit code of a run the harness could not decide (a clause in "error" and none failed). */
export const HARNESS_ERROR_EXIT = 3;

/** The exit code of a finished run: a relay failure (1) outranks a harness error (3); 0 only when nothing is either. */
export function verdictExit(summary: { readonly failed: number; readonly errored: number }): number {
  return summary.failed > 0 ? 1 : summary.errored > 0 ? HARNESS_ERROR_EXIT : 0;
}

/** The catalogue selection and budget options `run` and `matrix` share. */
export const CATALOGUE_OPTIONS = {
  grep: { type: "string", valueName: "regex", description: "only clauses whose ID matches (case-insensitive)" },
  profile: {
    type: "string",
    multiple: true,
    valueName: "p",
    description: "2.3.0 | 2.4.0 | 2.5.0 | all (repeatable or comma-separated; default all)",
  },
  runs: {
    type: "string",
    valueName: "n",
    description: "fast-check runs per property and profile",
    default: String(DEFAULT_RUNS),
  },
  seed: { type: "string", valueName: "n", description: "fast-check seed", default: "random, printed" },
  "timeout-ms": {
    type: "string",
    valueName: "n",
    description:
      "per-case bound on the relay call, in load-scaled time (stretched while the machine's cores are busy); the relay's process tree is killed past it",
    default: String(DEFAULT_TIMEOUT_MS),
  },
  concurrency: {
    type: "string",
    valueName: "n",
    description:
      "CPU lanes: cases in flight; when more than twice as many cases wait out a hang or a delay, they get twice as many wait lanes",
    default: String(DEFAULT_CONCURRENCY),
  },
} as const satisfies OptionTable;

/** What the shared options select: the clauses (a --grep that matches none is bad input), profiles and budget. */
export interface CatalogueSelection {
  readonly clauses: Clause[];
  readonly grep: string | undefined;
  readonly profiles: Profile[];
  readonly seed: number;
  readonly runs: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
}

/** Reads CATALOGUE_OPTIONS' values. */
export function catalogueSelection(values: {
  grep?: string;
  profile?: string[];
  runs?: string;
  seed?: string;
  "timeout-ms"?: string;
  concurrency?: string;
}): CatalogueSelection {
  const profiles = parseProfiles(values.profile);
  const grep = parseGrep(values.grep);
  const clauses = selectClauses(grep, CATALOGUE);
  if (clauses.length === 0) throw new UsageError(`--grep ${JSON.stringify(grep)} matches no clause`);
  return {
    clauses,
    grep,
    profiles,
    seed: parseCount("seed", values.seed, Math.floor(Math.random() * 2 ** 31)),
    runs: parseCount("runs", values.runs, DEFAULT_RUNS),
    timeoutMs: parseCount("timeout-ms", values["timeout-ms"], DEFAULT_TIMEOUT_MS, 1),
    concurrency: parseCount("concurrency", values.concurrency, DEFAULT_CONCURRENCY, 1),
  };
}
