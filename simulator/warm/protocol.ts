// The warm simulator's spool protocol: plain files in one folder, so the client needs only synchronous fs calls
// (an event-loop socket client costs ~10 ms of start-up, more than the whole call it saves).
//   <id>.req  one header line (JSON: program, argv, environment, cwd, pid, launch path) then pi's stdin bytes
//   <id>.res  one header line (JSON) then stdout and stderr bytes
// Every file is written under a temporary name and renamed into place, so a reader never sees half of one.
import { closeSync, openSync, renameSync } from "node:fs";
import type { CallIo } from "../runtime/call-io.ts";
import { writeAllSync } from "../runtime/emit.ts";
import { join } from "node:path";

/** Folder of a running warm simulator; set, the bin launchers send their calls there. */
export const ENV_WARM = "GENTLE_AI_SIM_WARM";

/** What the server writes, once it listens: `{ "pid": <server pid> }`. */
export const SERVER_FILE = "server.json";

/** One call as the launcher was started: its CallIo, less the stdin reader (the bytes follow the header instead). */
export interface WarmRequest extends Omit<CallIo, "readStdin"> {
  readonly v: 1;
  readonly program: "gentle-ai" | "pi";
  /** Byte length of the stdin that follows the header line; null when the launcher did not read stdin (gentle-ai). */
  readonly stdin: number | null;
}

/** The server's answer: the call's streams and exit code, or "run this call yourself". */
export type WarmHeader =
  | { readonly kind: "exit"; readonly code: number; readonly stdout: number; readonly stderr: number }
  | { readonly kind: "local"; readonly why: string };

/** The spool files of call `id`. */
export function spoolFiles(dir: string, id: string): { readonly req: string; readonly res: string } {
  return { req: join(dir, `${id}.req`), res: join(dir, `${id}.res`) };
}

/** Writes the parts under a temporary name, then renames them into place (readers see all of the file or none). */
export function writeAtomic(path: string, ...parts: readonly Buffer[]): void {
  const tmp = `${path}.${process.pid}.part`;
  // open/write/close rather than writeFileSync: a launcher runs this once, cold, where the wrapper costs most.
  const fd = openSync(tmp, "w", 0o600);
  try {
    for (const part of parts) writeAllSync(fd, part);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** A header line: compact JSON and a newline. */
export function headerLine(header: object): Buffer {
  return Buffer.from(`${JSON.stringify(header)}\n`, "utf8");
}

/** Splits a spool file into its header line (parsed) and the bytes after it; throws on a file without one. */
export function splitHeader(bytes: Buffer): { readonly header: unknown; readonly body: Buffer } {
  const end = bytes.indexOf(0x0a);
  if (end < 0) throw new Error("no header line");
  return { header: JSON.parse(bytes.subarray(0, end).toString("utf8")), body: bytes.subarray(end + 1) };
}

/** A response: its parts, to write with writeAtomic. */
export function responseParts(header: WarmHeader, stdout: Buffer = Buffer.alloc(0), stderr: Buffer = Buffer.alloc(0)): Buffer[] {
  return [headerLine(header), stdout, stderr];
}

/** Splits a response file into its header and streams; throws on a malformed file. */
export function decodeResponse(bytes: Buffer): { readonly header: WarmHeader; readonly stdout: Buffer; readonly stderr: Buffer } {
  const { header: parsed, body } = splitHeader(bytes);
  const header = parsed as WarmHeader;
  if (header.kind !== "exit") return { header, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };
  if (body.length !== header.stdout + header.stderr) throw new Error(`response body is ${body.length} bytes, header says ${header.stdout}+${header.stderr}`);
  return { header, stdout: body.subarray(0, header.stdout), stderr: body.subarray(header.stdout) };
}

/** Splits a request file into its header and the stdin bytes it carries. */
export function decodeRequest(bytes: Buffer): { readonly request: WarmRequest; readonly stdin: Buffer | null } {
  const { header, body } = splitHeader(bytes);
  const request = header as WarmRequest;
  if (request.v !== 1) throw new Error(`request version ${String(request.v)} (this server speaks 1)`);
  if (request.stdin === null) return { request, stdin: null };
  if (body.length !== request.stdin) throw new Error(`request carries ${body.length} stdin bytes, header says ${request.stdin}`);
  return { request, stdin: body };
}

/** True for argv tokens that make gentle-ai read stdin (`--input=-`, or `-` as a separate value). */
export function readsStdin(token: string): boolean {
  return token === "-" || token.endsWith("=-");
}
