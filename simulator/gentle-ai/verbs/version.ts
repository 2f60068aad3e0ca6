// `gentle-ai version` / `--version` / `-v` (provider reference §12).
import type { Invocation, Outcome } from "../invocation.ts";
import { traitsOf } from "../profiles.ts";
import { okOutcome } from "../route.ts";

/** Prints `gentle-ai <Version>\n` (GoReleaser version, no leading `v`) and exits 0. */
export function version(invocation: Invocation): Outcome {
  return okOutcome(`gentle-ai ${traitsOf(invocation.scenario.profile).version}\n`);
}
