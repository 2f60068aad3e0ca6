/** Canonical prefixed digest identity: `sha256:` + 64 lowercase hex. */
export const CANONICAL_SHA256_IDENTITY = /^sha256:[0-9a-f]{64}$/;
/** Bare 64 lowercase hex (the compact caller request hash; evidence fields as #279 reports them). */
export const BARE_SHA256_HEX = /^[0-9a-f]{64}$/;

/** True for `sha256:<64 lowercase hex>`. */
export function isCanonicalSha256Identity(value: unknown): value is string {
  return typeof value === "string" && CANONICAL_SHA256_IDENTITY.test(value);
}

/** Accepts bare or prefixed 64 lowercase hex and returns `sha256:<hex>`; anything else returns undefined. */
export function normalizeSha256Identity(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  if (CANONICAL_SHA256_IDENTITY.test(value)) return value;
  if (BARE_SHA256_HEX.test(value)) return `sha256:${value}`;
  return undefined;
}

/** The bare hex body of a canonical identity. */
export function bareSha256Hex(identity: string): string {
  return identity.startsWith("sha256:") ? identity.slice("sha256:".length) : identity;
}
