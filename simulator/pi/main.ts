// Fake `pi` entry: the scripted reviewer under the shared fault runtime.
// Bundled as CommonJS for start-up speed, so no top-level await: runProcess ends the process itself.
import { runProcess } from "../runtime/run-process.ts";
import { piProgram } from "./program.ts";

void runProcess(piProgram);
