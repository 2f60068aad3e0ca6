// Hostile relay: hangs in the pi leg on every call that reaches it (hang-in-leg.ts).
import { hangIn } from "./hang-in-leg.ts";

export * from "../../../../relay/index.ts";

hangIn("pi");
