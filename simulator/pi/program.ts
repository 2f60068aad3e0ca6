import type { ProgramSpec } from "../runtime/plan-call.ts";
import { resolveBytes } from "../scenario/resolve-bytes.ts";
import { piResultBytes } from "./result-bytes.ts";

/** The fake pi: reads its whole prompt on stdin and answers with the scenario's scripted bytes. */
export const piProgram: ProgramSpec = {
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
};
