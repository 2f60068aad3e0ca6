import type { Invocation, Outcome } from "./invocation.ts";
import type { ProcessContext, ProgramSpec } from "../runtime/plan-call.ts";

/** The gentle-ai program: builds the Invocation handed to dispatch (stdin read lazily, file reads recorded). */
export function gentleAiProgram(dispatch: (invocation: Invocation) => Promise<Outcome>): ProgramSpec {
  return {
    program: "gentle-ai",
    produce(context: ProcessContext) {
      const invocation: Invocation = {
        argv: context.argv,
        env: context.env,
        cwd: context.cwd,
        scenario: context.loaded.scenario,
        scenarioDir: context.loaded.dir,
        stateDir: context.config.stateDir,
        lineagePinned: context.loaded.lineagePinned,
        executablePath: context.executablePath,
        readStdin: context.readStdin,
        readFile: context.readFile,
      };
      return dispatch(invocation);
    },
  };
}
