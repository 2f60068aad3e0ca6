// What a replayer of one file kind provides (registry.ts lists them); apart from the registry so handlers that
// import this type never import the registry that imports them.
import type { CommandIo } from "../cli/command.ts";
import type { OptionTable } from "../cli/options.ts";
import type { ProgressCounts } from "../cli/progress.ts";

/** `--quiet`, shared by every replayer (one description in `replay --help`). */
export const QUIET_REPLAY_OPTION = {
  type: "boolean",
  description:
    "no line for an item that replays clean, and no progress line: failures, re-recordings and the summary only",
} as const;

/** One kind of replayable file: its schema ids, options and how to replay it. */
export interface ReplayHandler {
  /** Exact `schema` values this handler replays. */
  readonly schemas: readonly string[];
  readonly describe: string;
  /** The options this handler reads: `replay` splits files from options with their union, and documents it. */
  readonly options: OptionTable;
  /** Re-runs one file; returns an exit code (0 reproduced-as-passing / 1 still failing / 2 bad file). */
  replay(file: string, data: unknown, args: readonly string[], io: CommandIo): Promise<number>;
  /** `replay` with no file: replay every stored item of this kind (goldens), telling `onProgress` after each. */
  replaysAll?(args: readonly string[], io: CommandIo, onProgress?: (counts: ProgressCounts) => void): Promise<number>;
}
