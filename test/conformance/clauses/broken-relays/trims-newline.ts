// Broken relay: trims one trailing newline (LF or CRLF) from the staged result.
import { corruptStagedFile } from "./intercept.ts";

corruptStagedFile((bytes) => {
  const text = bytes.toString("latin1");
  return Buffer.from(
    text.endsWith("\r\n") ? text.slice(0, -2) : text.endsWith("\n") ? text.slice(0, -1) : text,
    "latin1",
  );
});
export * from "../../../../relay/index.ts";
