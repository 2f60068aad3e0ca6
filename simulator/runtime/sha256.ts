import { createRequire } from "node:module";

// node:crypto costs several ms to load, so it is required on first use only (pi without a transcript never needs it).
const load = createRequire(import.meta.url);
let crypto: typeof import("node:crypto") | undefined;

/** Lowercase hex SHA-256 of the concatenated parts. */
export function sha256Hex(...parts: ReadonlyArray<Buffer | string>): string {
  crypto ??= load("node:crypto") as typeof import("node:crypto");
  const hash = crypto.createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
}
