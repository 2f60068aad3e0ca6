// Broken relay: prefixes a UTF-8 BOM to the staged result.
import { corruptStagedFile } from "./intercept.ts";

corruptStagedFile((bytes) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]));
export * from "../../../../relay/index.ts";
