/** Flat, printable fields of a step's result that `expect` lines check. */
export type Outcome = Record<string, string | number | boolean | null>;

/** Flattens an error (any class) into outcome fields: name, message and its own primitive properties. */
export function errorOutcome(error: unknown): Outcome {
  if (!(error instanceof Error)) return { ok: false, name: "thrown", message: String(error) };
  const out: Outcome = { ok: false, name: error.name, message: error.message };
  for (const [k, v] of Object.entries(error)) {
    if (k === "ok" || k === "name" || k === "message") continue;
    if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
    else if (Buffer.isBuffer(v)) out[k] = v.toString("utf8");
  }
  return out;
}

/** Adds the primitive fields of a JSON object under `prefix.`, nested objects as `prefix.key.inner`. */
export function flattenInto(out: Outcome, prefix: string, value: unknown): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  for (const [k, v] of Object.entries(value)) {
    if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean")
      out[`${prefix}.${k}`] = v;
    // Nested objects flatten too (operation/v2 carries finalize's state in `result`); arrays stay out.
    else flattenInto(out, `${prefix}.${k}`, v);
  }
}
