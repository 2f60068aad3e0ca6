import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { BytesSpec } from "./bytes-spec.ts";

/** Turns a scenario bytes spec into a Buffer; `file` resolves against the scenario file's folder. */
export function resolveBytes(spec: BytesSpec, baseDir: string): Buffer {
  if ("text" in spec) return Buffer.from(spec.text, "utf8");
  if ("base64" in spec) return Buffer.from(spec.base64, "base64");
  return readFileSync(resolve(baseDir, spec.file));
}
