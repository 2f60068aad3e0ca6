// Fake `gentle-ai` entry: the shared process runtime (config, faults, streams, transcript) around dispatch.
// Bundled as CommonJS for start-up speed, so no top-level await: runProcess ends the process itself.
import { runProcess } from "../runtime/run-process.ts";
import { gentleAiProgram } from "./program.ts";
import { dispatch } from "./dispatch.ts";

void runProcess(gentleAiProgram(dispatch));
