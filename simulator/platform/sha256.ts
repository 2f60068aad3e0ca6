import { loadBuiltin } from "./load-builtin.ts";

// node:crypto costs several ms to load, so it is required on first use only (pi without a transcript never needs it).
let crypto: typeof import("node:crypto") | undefined;

/** Lowercase hex SHA-256 of the concatenated parts. */
export function sha256Hex(...parts: ReadonlyArray<Buffer | string>): string {
  crypto ??= loadBuiltin<typeof import("node:crypto")>("node:crypto");
  const hash = crypto.createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
}
