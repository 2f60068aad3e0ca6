// The flag preamble the review verbs share: the FlagSet parse, -h/--help, the detached-bool refusal, and the
// positional and --contract checks.
import type { ParsedFlags } from "../../../go/go-flags.ts";
import type { FlagDef, FlagSetSpec } from "../../../go/flag-spec.ts";
import { detachedBoolRefusal, helpRequested, parseFlags } from "../../../go/go-flags.ts";
import { usageText } from "../../argv/usage.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import type { StdoutBuffer } from "../../route.ts";
import { invalidRequest, nativeError } from "../../refusal.ts";
import { CONTRACT_V1, CONTRACT_V2 } from "../../../output/envelope.ts";

/** --repository-context of the capture verbs (same usage text on each). */
export const REPOSITORY_CONTEXT_FLAG: FlagDef = {
  name: "repository-context",
  kind: "string",
  usage:
    "opaque provider-issued repository context; supplied by the collect transition and mutually exclusive with --cwd, pass one or the other and not both",
};

/**
 * Parses a verb's flags like `parseReviewFlags` + `reviewHelpRequested` (review.go:70-83, :131-138). A parse error
 * writes Go's message and usage to the buffer (the plain route keeps it, the others discard it) and refuses. ErrHelp
 * writes the usage and skips the detached-bool check (`--materialize true`), which otherwise refuses. Then any argument
 * exactly `-h` or `--help`, parsed or not (even a flag's value), ends the verb successfully: undefined.
 */
export function parseVerbFlags(spec: FlagSetSpec, argv: readonly string[], out: StdoutBuffer): ParsedFlags | undefined {
  const parsed = parseFlags(spec, argv, usageText);
  if (!parsed.ok) {
    out.write(parsed.error.output);
    throw invalidRequest(parsed.error.message);
  }
  const f = parsed.flags;
  if (f.help) out.write(f.output);
  else {
    const detached = detachedBoolRefusal(f, argv);
    if (detached) throw invalidRequest(detached);
  }
  if (helpRequested(argv)) return undefined;
  return f;
}

/**
 * The stray-positional refusal every review verb shares: `unexpected <verb> argument %q` (e.g. review_facade.go:855).
 */
export function refusePositionals(f: ParsedFlags, verbName: string): void {
  if (f.positionals.length > 0)
    throw invalidRequest(`unexpected ${verbName} argument ${goQuoteStr(f.positionals[0]!)}`);
}

/** `validateReviewIntegrationContract` (review_capabilities.go:161-166): a bare error, not a preflight refusal. */
export function checkContract(contract: string): void {
  if (contract !== CONTRACT_V1 && contract !== CONTRACT_V2)
    throw nativeError(
      `unsupported review integration contract ${goQuoteStr(contract)}; retry with gentle-ai review capabilities --contract ${CONTRACT_V1} or gentle-ai review capabilities --contract ${CONTRACT_V2}`,
    );
}

/**
 * The `--contract` value when the FlagSet saw the flag (`reviewIntegrationNegotiation`, review_operation_contract.go:
 * 1593-1601: set at all, even empty, means negotiated and must be v1 or v2); undefined when absent.
 */
export function contractFlag(f: ParsedFlags): string | undefined {
  if (!f.has("contract")) return undefined;
  const contract = f.str("contract");
  checkContract(contract);
  return contract;
}
