// `relay-conformance release`: implemented in conformance/release/command.ts.
export { releaseCommand } from "../../release/command.ts";
