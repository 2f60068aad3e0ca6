// Routing classes (provider reference §2): how a verb's buffered stdout and its refusal reach the streams.
import type { Outcome } from "./invocation.ts";
import { ReviewRefusal } from "./refusal.ts";
import { CONTRACT_V2, failureEnvelope, FAILURE_CODES, safeScanLineage } from "../output/envelope.ts";
import type { ScanFlag } from "../output/envelope.ts";
import { encodeReviewJson } from "../output/go-json.ts";

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
}

/** The `--contract` value if the argument list carries one before the flag terminator (last wins, like flag). */
export function contractOf(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const t = argv[i]!;
    if (t === "--" || t.length < 2 || t[0] !== "-") break;
    const m = /^--?contract(?:=(.*))?$/s.exec(t);
    if (!m) continue;
    if (m[1] !== undefined) found = m[1];
    else if (i + 1 < argv.length) found = argv[++i]!;
  }
  return found;
}

/** Builds the route of a verb: `collect` for the capture verbs, otherwise negotiated when `--contract` is given. */
export function routeFor(
  argv: readonly string[],
  verb: string,
  kind: "collect-capture" | "negotiable" | "plain",
  flags: readonly ScanFlag[],
): Route {
  const operation = `review.${verb}`;
  const lineageId = safeScanLineage(argv, flags);
  if (kind === "collect-capture") return { class: "collect-capture", operation, version: 2, lineageId };
  const contract = kind === "negotiable" ? contractOf(argv) : undefined;
  if (contract === undefined) return { class: "plain", operation, version: 1, lineageId };
  return { class: "negotiated", operation, version: contract === CONTRACT_V2 ? 2 : 1, lineageId };
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

/** Renders a refusal on a route. */
export function refusalOutcome(route: Route, refusal: ReviewRefusal, buffered: Buffer): Outcome {
  if (route.class === "plain") {
    return { stdout: buffered, stderr: Buffer.from(`Error: ${refusal.text}\n`, "utf8"), exitCode: 1 };
  }
  const envelope = encodeReviewJson(
    failureEnvelope({
      version: route.version,
      operation: route.operation,
      code: refusal.code,
      cause: refusal.text,
      lineageId: route.lineageId,
    }),
  );
  const line =
    route.class === "collect-capture" ? refusal.text : FAILURE_CODES[refusal.code].message;
  return { stdout: envelope, stderr: Buffer.from(`Error: ${line} [${refusal.code}]\n`, "utf8"), exitCode: 1 };
}

/** Runs a verb body on a route: success copies the buffer to stdout; a ReviewRefusal becomes the route's failure. */
export async function runRouted(
  route: Route,
  body: (out: StdoutBuffer) => void | Promise<void>,
): Promise<Outcome> {
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
  return { stdout: typeof stdout === "string" ? Buffer.from(stdout, "utf8") : stdout, stderr: Buffer.alloc(0), exitCode: 0 };
}

/** The plain `Error: <text>` failure with empty stdout (unknown verbs and the like). */
export function plainError(text: string): Outcome {
  return { stdout: Buffer.alloc(0), stderr: Buffer.from(`Error: ${text}\n`, "utf8"), exitCode: 1 };
}
