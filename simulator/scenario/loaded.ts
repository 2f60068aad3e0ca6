import type { Scenario } from "./schema.ts";
import { DEFAULT_SCENARIO } from "./default.ts";

/** A validated scenario plus where it came from (null path: the built-in default). */
export interface LoadedScenario {
  readonly scenario: Scenario;
  readonly path: string | null;
  /** Folder that `file` bytes specs resolve against. */
  readonly dir: string;
  /** Whether the scenario file names a `lineage`; without one (and for the built-in default), a repository decides. */
  readonly lineagePinned: boolean;
}

/** Whether a scenario file's JSON names a `lineage` (the validated scenario cannot say: defaults fill one in). */
export function pinsLineage(json: unknown): boolean {
  return typeof json === "object" && json !== null && Object.hasOwn(json, "lineage");
}

/**
 * The built-in default scenario (already in parsed form: no validation cost at start-up). It pins no lineage, so a
 * client that sets only HOME meets the repository it points at, as with the real binary; its seeded lineage still
 * answers outside any work tree.
 */
export function builtinScenario(dir: string): LoadedScenario {
  return { scenario: DEFAULT_SCENARIO, path: null, dir, lineagePinned: false };
}
