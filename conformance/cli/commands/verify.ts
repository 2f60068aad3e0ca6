// `relay-conformance verify`: implemented in conformance/verify/command.ts.
export { verifyCommand } from "../../verify/command.ts";
