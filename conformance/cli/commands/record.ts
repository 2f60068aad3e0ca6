// `relay-conformance record`: implemented in conformance/record/command.ts.
export { recordCommand } from "../../record/command.ts";
