import type { ProgramSpec } from "../runtime/plan-call.ts";
import { resolveBytes } from "../scenario/resolve-bytes.ts";
import { piArgvOutcome } from "./argv.ts";
import { piResultBytes } from "./result-bytes.ts";

/**
 * The fake pi: refuses the argv the real pi refuses (before it reads anything), answers `--version`, and otherwise
 * reads its whole prompt on stdin and answers with the scenario's scripted bytes.
 */
export const piProgram: ProgramSpec = {
  program: "pi",
  recordCwdListing: true,
  produce(context) {
    const argv = piArgvOutcome(context.argv);
    if (argv.kind === "refuse") return { stdout: Buffer.alloc(0), stderr: argv.stderr, exitCode: argv.exitCode };
    if (argv.kind === "version") return { stdout: argv.stdout, stderr: argv.stderr, exitCode: argv.exitCode };
    const { pi } = context.loaded.scenario;
    const bytesOf = (spec: Parameters<typeof resolveBytes>[0]): Buffer => resolveBytes(spec, context.loaded.dir);
    const prompt = context.readStdin();
    return {
      stdout: piResultBytes(pi.result, prompt, bytesOf),
      stderr: Buffer.concat([argv.stderr, pi.stderr ? bytesOf(pi.stderr) : Buffer.alloc(0)]),
      exitCode: pi.exitCode,
    };
  },
};
