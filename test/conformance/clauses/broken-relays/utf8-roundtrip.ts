// Broken relay: decodes the result as UTF-8 and re-encodes it (invalid sequences become U+FFFD).
import { corruptStagedFile } from "./intercept.ts";

corruptStagedFile((bytes) => Buffer.from(bytes.toString("utf8"), "utf8"));
export * from "../../../../relay/index.ts";
