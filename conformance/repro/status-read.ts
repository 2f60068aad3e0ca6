import type { CollectInput } from "../status/decode.ts";
import type { RelaySlot } from "../status/slots.ts";
import type { Outcome } from "./outcome.ts";

/** A decoded STATUS: outcome fields, variables, its collect inputs and the relay slots they offer. */
export interface StatusRead {
  readonly outcome: Outcome;
  readonly vars: Record<string, string>;
  readonly inputs: readonly CollectInput[];
  readonly slots: readonly RelaySlot[];
}
