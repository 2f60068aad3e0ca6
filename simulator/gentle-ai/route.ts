// Routing classes (provider reference §2; review_facade.go `RunReview`, review_operation_contract.go:440-491): how a
// verb's buffered stdout and its refusal reach the streams, and the `--contract` negotiation that precedes every verb.
import type { Outcome } from "./invocation.ts";
import { ReviewRefusal } from "./refusal.ts";
import { CONTRACT_V1, CONTRACT_V2, failureEnvelope, FAILURE_CODES, safeScanLineage } from "../output/envelope.ts";
import type { FailureCode, ScanFlag } from "../output/envelope.ts";
import { encodeReviewJson } from "../go/go-json.ts";
import { operationRow, scanShape } from "./operation-registry.ts";
import type { OperationRow } from "./operation-registry.ts";

export type RouteClass = "negotiated" | "collect-capture" | "plain";

/** How one invocation of one verb is routed. */
export interface Route {
  readonly class: RouteClass;
  /** Envelope `operation`, e.g. `review.capture-result`. */
  readonly operation: string;
  /** Envelope version: collect-capture is always 2; negotiated follows `--contract`. */
  readonly version: 1 | 2;
  /** The safe-scanned `--lineage`, when the arguments scan cleanly. */
  readonly lineageId: string | undefined;
  /** Whether the operation mutates authority (an untyped failure is then `operation_outcome_unknown`). */
  readonly mutates: boolean;
}

/**
 * What `reviewIntegrationContractArgument` (:472-491) finds: only `--contract` and `--contract=…`, anywhere in argv.
 */
export interface ContractArgument {
  readonly provided: boolean;
  /** The last value given (`""` when none). */
  readonly value: string;
  /** A bare `--contract` is the very last argument. */
  readonly missing: boolean;
}

/** Scans the verb's arguments for `--contract`: past `--` and positionals, last wins, single-dash forms ignored. */
export function contractArgument(args: readonly string[]): ContractArgument {
  let provided = false;
  let value = "";
  let missing = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith("--contract=")) {
      provided = true;
      value = arg.slice("--contract=".length);
      missing = false;
      continue;
    }
    if (arg !== "--contract") continue;
    provided = true;
    if (i + 1 >= args.length) return { provided: true, value: "", missing: true };
    value = args[++i]!;
    missing = false;
  }
  return { provided, value, missing };
}

/** The lineage the envelope carries for a verb (`safeReviewIntegrationLineage`, :1214-1226). */
function envelopeLineage(row: OperationRow | undefined, args: readonly string[]): string | undefined {
  const flag = row?.operation === "review.retry_final_verification" ? "predecessor-lineage" : "lineage";
  return safeScanLineage(args, scanShape(row), flag);
}

/**
 * The negotiation route of `RunReview` (`reviewIntegrationFailureRoute`, :440-470): for a negotiated verb given
 * `--contract` (capabilities: always), a missing, empty or unknown contract is refused before the verb runs with a
 * failure/v1 envelope and no cause. `args` are the arguments after `review` (verb first).
 */
export function negotiationRefusal(args: readonly string[]): Outcome | undefined {
  const [command, ...rest] = args;
  const row = command === undefined ? undefined : operationRow(command);
  if (row === undefined || !row.negotiated) return undefined;
  const contract = contractArgument(rest);
  if (!contract.provided && command !== "capabilities") return undefined;
  let code: FailureCode | undefined;
  if (contract.missing) code = "invalid_request";
  else if (contract.provided && contract.value === "") code = "empty_contract";
  else if (contract.provided && contract.value !== CONTRACT_V1 && contract.value !== CONTRACT_V2)
    code = "unsupported_contract";
  if (code === undefined) return undefined;
  const envelope = failureEnvelope({
    version: 1,
    operation: row.operation,
    code,
    lineageId: envelopeLineage(row, rest),
  });
  return {
    stdout: encodeReviewJson(envelope),
    stderr: Buffer.from(`Error: ${FAILURE_CODES[code].message} [${code}]\n`, "utf8"),
    exitCode: 1,
  };
}

/**
 * Builds the route of a verb: collect-capture for the capture verbs (from v2.4.0), negotiated when `--contract` is
 * given (capabilities always), plain otherwise. The envelope lineage scan uses the registry's flag shape, not the
 * FlagSet (`flags` is kept for callers and used only for verbs outside the registry).
 */
export function routeFor(
  argv: readonly string[],
  verb: string,
  kind: "collect-capture" | "negotiable" | "plain",
  flags: readonly ScanFlag[] = [],
): Route {
  const operation = `review.${verb}`;
  const row = operationRow(verb);
  const lineageId = row === undefined ? safeScanLineage(argv, flags) : envelopeLineage(row, argv);
  const mutates = row?.mutates ?? false;
  if (kind === "collect-capture") return { class: "collect-capture", operation, version: 2, lineageId, mutates };
  const contract = contractArgument(argv);
  const negotiated = kind === "negotiable" && (contract.provided || verb === "capabilities");
  if (!negotiated) return { class: "plain", operation, version: 1, lineageId, mutates };
  // `newReviewIntegrationFailure` (:495-497): failure/v2 only when `--contract` names v2.
  return {
    class: "negotiated",
    operation,
    version: contract.provided && contract.value === CONTRACT_V2 ? 2 : 1,
    lineageId,
    mutates,
  };
}

/** Collects what a verb writes to stdout before it succeeds or refuses (the FlagSet output included). */
export class StdoutBuffer {
  private readonly chunks: Buffer[] = [];
  /** Appends bytes or UTF-8 text. */
  write(data: Buffer | string): void {
    this.chunks.push(typeof data === "string" ? Buffer.from(data, "utf8") : data);
  }
  /** Everything written so far. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** The envelope code of a refusal on a negotiated or collect-capture route. */
function envelopeCode(route: Route, refusal: ReviewRefusal): FailureCode {
  if (refusal.kind === "preflight") return refusal.code;
  return route.mutates ? "operation_outcome_unknown" : "operation_failed";
}

/** Renders a refusal on a route. */
export function refusalOutcome(route: Route, refusal: ReviewRefusal, buffered: Buffer): Outcome {
  if (route.class === "plain") {
    // (not simulated) an untyped failure of a mutating verb also saves a defect report and names it on this line.
    return { stdout: buffered, stderr: Buffer.from(`Error: ${refusal.text}\n`, "utf8"), exitCode: 1 };
  }
  const code = envelopeCode(route, refusal);
  const envelope = encodeReviewJson(
    failureEnvelope({
      version: route.version,
      operation: route.operation,
      code,
      cause: refusal.envelopeCause,
      lineageId: route.lineageId,
      requiredInputs: refusal.requiredInputs,
    }),
  );
  const line = route.class === "collect-capture" ? refusal.text : FAILURE_CODES[code].message;
  return { stdout: envelope, stderr: Buffer.from(`Error: ${line} [${code}]\n`, "utf8"), exitCode: 1 };
}

/** Runs a verb body on a route: success copies the buffer to stdout; a ReviewRefusal becomes the route's failure. */
export async function runRouted(route: Route, body: (out: StdoutBuffer) => void | Promise<void>): Promise<Outcome> {
  const out = new StdoutBuffer();
  try {
    await body(out);
  } catch (error) {
    if (error instanceof ReviewRefusal) return refusalOutcome(route, error, out.bytes());
    throw error;
  }
  return { stdout: out.bytes(), stderr: Buffer.alloc(0), exitCode: 0 };
}

/** Convenience for handlers that are not routed (version, help): plain success. */
export function okOutcome(stdout: Buffer | string): Outcome {
  return {
    stdout: typeof stdout === "string" ? Buffer.from(stdout, "utf8") : stdout,
    stderr: Buffer.alloc(0),
    exitCode: 0,
  };
}

/** The plain `Error: <text>` failure with empty stdout (unknown verbs and the like). */
export function plainError(text: string): Outcome {
  return { stdout: Buffer.alloc(0), stderr: Buffer.from(`Error: ${text}\n`, "utf8"), exitCode: 1 };
}
