// The subcommand registry. Other parts add theirs here (record, verify, release, repro): import and append.
import type { Command } from "../command.ts";
import { listCommand } from "./list.ts";
import { matrixCommand } from "./matrix.ts";
import { mergeReportsCommand } from "./merge-reports.ts";
import { replayCommand } from "./replay.ts";
import { runCommand } from "./run.ts";
import { reproCliCommand } from "./repro.ts";
import { releaseCommand } from "../../release/command.ts";
import { recordCommand } from "../../record/command.ts";
import { verifyCommand } from "../../verify/command.ts";
import { fidelityCommand } from "../../fidelity/command.ts";
import { upstreamLanesCommand } from "../../lanes/command.ts";

export const COMMANDS: Command[] = [runCommand, matrixCommand, replayCommand, listCommand, recordCommand, verifyCommand, fidelityCommand, upstreamLanesCommand, releaseCommand];
COMMANDS.push(reproCliCommand, mergeReportsCommand);
