// Fake `pi`: reads its whole prompt on stdin and answers with the scenario's scripted bytes, under the shared fault runtime.
// Bundled as CommonJS for start-up speed, so no top-level await: runProcess ends the process itself.
import { runProcess } from "../runtime/run-process.ts";
import { resolveBytes } from "../scenario/resolve-bytes.ts";
import { piResultBytes } from "./result-bytes.ts";

void runProcess({
  program: "pi",
  recordCwdListing: true,
  produce(context) {
    const { pi } = context.loaded.scenario;
    const bytesOf = (spec: Parameters<typeof resolveBytes>[0]): Buffer => resolveBytes(spec, context.loaded.dir);
    const prompt = context.readStdin();
    return {
      stdout: piResultBytes(pi.result, prompt, bytesOf),
      stderr: pi.stderr ? bytesOf(pi.stderr) : Buffer.alloc(0),
      exitCode: pi.exitCode,
    };
  },
});
