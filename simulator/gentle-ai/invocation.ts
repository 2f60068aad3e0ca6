import type { Scenario } from "../scenario/schema.ts";
import type { Outcome } from "../output/outcome.ts";
import type { IdentitySource } from "../state/identities.ts";

export type { Outcome };

/** Everything a verb handler may see of one gentle-ai process. Reads go through it so the transcript records them. */
export interface Invocation {
  /** Arguments after the program name, exactly as spawned. */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly scenario: Scenario;
  /** Folder that relative paths in the scenario resolve against. */
  readonly scenarioDir: string;
  /** Folder holding the persisted lineage state. */
  readonly stateDir: string;
  /**
   * Whether the scenario pins its lineage. False: the repository at the call's cwd decides what exists
   * (simulator/gentle-ai/repository-scope.ts). Undefined (hand-built invocations) counts as pinned.
   */
  readonly lineagePinned?: boolean;
  /**
   * Set while a lifecycle verb runs on a lineage `review start` created in a real repository (repository-scope.ts):
   * that repository's root. Such a lineage's verdicts follow its captured reviewer results, as gentle-ai's do.
   */
  readonly repositoryRoot?: string;
  /**
   * The identity world the verb reads lineages through: set with repositoryRoot (repository-scope.ts), so such a
   * lineage has its repository's trees and paths. Absent: the seed world (every identity derives from the seed).
   */
  readonly identitySource?: IdentitySource;
  /** Absolute path of this executable (simulator/bin/gentle-ai), for capabilities' executable digest. */
  readonly executablePath: string;
  /** Reads the whole of stdin once; later calls return the same bytes. */
  readStdin(): Buffer;
  /** Reads a file's bytes by path (relative to cwd), recording it in the transcript; fs errors propagate. */
  readFile(path: string): Buffer;
}

export type VerbHandler = (invocation: Invocation) => Outcome | Promise<Outcome>;
