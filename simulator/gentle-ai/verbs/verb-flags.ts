// The flag preamble the review verbs share: the FlagSet parse, -h/--help, the detached-bool refusal, and the
// (inferred) positional and --contract checks.
import type { FlagDef, FlagSetSpec, ParsedFlags } from "../argv/go-flags.ts";
import { detachedBoolRefusal, helpReturnsEarly, parseFlags } from "../argv/go-flags.ts";
import type { StdoutBuffer } from "../route.ts";
import { invalidRequest } from "../refusal.ts";
import { CONTRACT_V1, CONTRACT_V2 } from "../../output/envelope.ts";

/** --repository-context of the capture verbs (same usage text on each). */
export const REPOSITORY_CONTEXT_FLAG: FlagDef = {
  name: "repository-context",
  kind: "string",
  usage:
    "opaque provider-issued repository context; supplied by the collect transition and mutually exclusive with --cwd, pass one or the other and not both",
};

/**
 * Parses a verb's flags. A parse error writes Go's message and usage to the buffer (the plain route keeps it,
 * collect-capture discards it with the buffer) and refuses; -h/--help writes the usage and returns undefined when
 * gentle-ai returns early; a detached bool value (`--materialize true`) is refused.
 */
export function parseVerbFlags(spec: FlagSetSpec, argv: readonly string[], out: StdoutBuffer): ParsedFlags | undefined {
  const parsed = parseFlags(spec, argv);
  if (!parsed.ok) {
    out.write(parsed.error.output);
    throw invalidRequest(parsed.error.message);
  }
  const f = parsed.flags;
  if (f.help) {
    out.write(f.output);
    if (helpReturnsEarly(f, argv)) return undefined;
  }
  const detached = detachedBoolRefusal(f, argv);
  if (detached) throw invalidRequest(detached);
  return f;
}

/** (inferred) text: the verb (`review status`, …) takes no positional arguments. */
export function refusePositionals(f: ParsedFlags, verbName: string): void {
  if (f.positionals.length > 0) throw invalidRequest(`${verbName} accepts no positional arguments; got ${JSON.stringify(f.positionals[0])}`);
}

/** The `--contract` value when given (v1 or v2, else refused with an inferred text); undefined when absent. */
export function contractFlag(f: ParsedFlags): string | undefined {
  const contract = f.has("contract") ? f.str("contract") : undefined;
  if (contract !== undefined && contract !== CONTRACT_V1 && contract !== CONTRACT_V2)
    throw invalidRequest(`unsupported review integration contract ${JSON.stringify(contract)}`);
  return contract;
}
