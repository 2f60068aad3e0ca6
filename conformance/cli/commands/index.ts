// The subcommand registry, in the order the top-level help lists them. A new command: import it and add it here.
import type { Command } from "../command.ts";
import { listCommand } from "./list.ts";
import { matrixCommand } from "./matrix.ts";
import { mergeReportsCommand } from "./merge-reports.ts";
import { replayCommand } from "./replay.ts";
import { runCommand } from "./run.ts";
import { reproCommand } from "../../repro/command.ts";
import { releaseCommand } from "../../release/command.ts";
import { recordCommand } from "../../record/command.ts";
import { verifyCommand } from "../../verify/command.ts";
import { fidelityCommand } from "../../fidelity/command.ts";
import { upstreamLanesCommand } from "../../lanes/command.ts";

export const COMMANDS: readonly Command[] = [
  runCommand,
  matrixCommand,
  replayCommand,
  listCommand,
  recordCommand,
  verifyCommand,
  fidelityCommand,
  upstreamLanesCommand,
  releaseCommand,
  reproCommand,
  mergeReportsCommand,
];
