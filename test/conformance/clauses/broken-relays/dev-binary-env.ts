// Broken relay: names the dev-binary session override differently (the mutant `relay-conformance mutate` found
// surviving on relay/gentle-ai-binary.ts:2, an emptied name), so gentle-pi's devbinary lane would go unheard.
export * from "../../../../relay/index.ts";

/** The override's name, misspelt. */
export const GENTLE_PI_GENTLE_AI_DEV_BINARY_ENV = "GENTLE_AI_DEV_BINARY";
