// Fake `gentle-ai` entry: the shared process runtime (config, faults, streams, transcript) around sim-core's dispatch.
import { runProcess } from "../runtime/run-process.ts";
import { gentleAiProgram } from "./program.ts";
import { dispatch } from "./dispatch.ts";

await runProcess(gentleAiProgram(dispatch));
