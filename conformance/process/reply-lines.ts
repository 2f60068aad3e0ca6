import type { Readable } from "node:stream";
import { MAX_REPLY_LINE_BYTES } from "./protocol.ts";

/** Splits a stream into lines without ever buffering more than MAX_REPLY_LINE_BYTES of one line. */
export function readLines(
  stream: Readable,
  onLine: (line: string) => void,
  onOverflow: () => void,
  onEnd: () => void,
): void {
  let parts: Buffer[] = [];
  let size = 0;
  let overflowed = false;
  stream.on("data", (chunk: Buffer) => {
    if (overflowed) return;
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      parts.push(chunk.subarray(start, nl));
      const line = Buffer.concat(parts).toString("utf8");
      parts = [];
      size = 0;
      start = nl + 1;
      if (line.trim() !== "") onLine(line);
    }
    const rest = chunk.subarray(start);
    size += rest.length;
    if (size > MAX_REPLY_LINE_BYTES) {
      overflowed = true;
      parts = [];
      onOverflow();
      return;
    }
    if (rest.length > 0) parts.push(rest);
  });
  stream.on("error", () => {});
  stream.on("end", onEnd);
}

/** JSON.parse that yields null for anything that is not JSON. */
export function safeJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return null;
  }
}
