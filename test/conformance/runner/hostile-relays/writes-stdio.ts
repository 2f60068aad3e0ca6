// Hostile relay: writes 8 MiB to stdout and stderr directly (streams and raw fds 1 and 2) around a correct call.
import { writeSync } from "node:fs";
import {
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";
import { isTarget } from "./trigger.ts";

export * from "../../../../relay/index.ts";

const NOISE = Buffer.alloc(2 * 1024 * 1024, '{"type":"result","id":1}\n');

/**
 * Writes every byte to a raw fd. Node's stdout and stderr pipes are non-blocking, and the queued stream write above
 * already fills them, so a single writeSync races the harness's reading and may throw EAGAIN: the noise must reach
 * the pipe, not turn into the relay's own error.
 */
function writeAll(fd: number, bytes: Buffer): void {
  for (let offset = 0; offset < bytes.length;) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    }
  }
}

/** Relays with noise on both standard streams on the happy path. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  if (!isTarget(request)) return relaySlot(request);
  process.stdout.write(NOISE);
  process.stderr.write(NOISE);
  writeAll(1, NOISE);
  writeAll(2, NOISE);
  return relaySlot(request);
}
