import type { PiResult } from "../scenario/pi-spec.ts";
import type { BytesSpec } from "../scenario/bytes-spec.ts";
import { reviewerResultBytes } from "./reviewer-result.ts";

/** The fake pi's stdout for a prompt, per the scenario's `pi.result`. */
export function piResultBytes(result: PiResult, prompt: Buffer, bytesOf: (spec: BytesSpec) => Buffer): Buffer {
  switch (result.kind) {
    case "reviewer-result":
      return reviewerResultBytes(prompt, result.findings);
    case "bytes":
      return bytesOf(result.bytes);
    case "echo":
      return Buffer.from(prompt);
    case "transform":
      return transform(result.transform, result.of === "prompt" ? Buffer.from(prompt) : reviewerResultBytes(prompt));
  }
}

function transform(kind: "reverse" | "upper" | "prefix-bom" | "append-crlf", bytes: Buffer): Buffer {
  switch (kind) {
    case "reverse":
      return Buffer.from(bytes).reverse();
    case "upper":
      // ASCII only, byte-wise: non-ASCII and invalid UTF-8 bytes pass through untouched.
      return Buffer.from(bytes.map((b) => (b >= 0x61 && b <= 0x7a ? b - 0x20 : b)));
    case "prefix-bom":
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
    case "append-crlf":
      return Buffer.concat([bytes, Buffer.from("\r\n", "latin1")]);
  }
}
