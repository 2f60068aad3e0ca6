// What the STATUS builder hands to the per-state transition renderers (reviewing here, correction in
// status-correction.ts), plus the shared argument rendering of §8.2.
import type { GoJson } from "../../output/go-json.ts";
import type { Identities } from "../../state/identities.ts";
import type { LineageState } from "../../state/lineage-state.ts";
import type { Invocation } from "../invocation.ts";
import type { ProfileTraits } from "../profiles.ts";

/** Everything a transition renderer may read; it must not write state (STATUS is read-only). */
export interface StatusContext {
  readonly invocation: Invocation;
  readonly traits: ProfileTraits;
  readonly ids: Identities;
  readonly lineage: LineageState;
  /** Current authority revision (`sha256:`…). */
  readonly revision: string;
  /** The `--agent` runtime after the handshake gate admitted it (undefined without --agent). */
  readonly agent: string | undefined;
  /** The `--contract` value, or undefined on the plain route. */
  readonly contract: string | undefined;
}

/** A renderer's contribution to the status object. */
export interface StatusExtension {
  /** The `next_transition` object ({kind, reason_code, execute?|collect?, correction_request?}). */
  readonly nextTransition: GoJson;
  /** Top-level `validation_request` (only correction_required under current_target). */
  readonly validationRequest?: GoJson;
}

/** A collect/execute argument: `{name, value, token}`, token = `--` + name with `_`→`-` + `=` + value. */
export function argument(name: string, value: string): GoJson {
  return { name, value, token: `--${name.replace(/_/g, "-")}=${value}` };
}

/** The `external.*` argument form, which carries no token. */
export function externalArgument(name: string, value: string): GoJson {
  return { name, value };
}

/** A provider role vector (§9): the binding plus `--agent=pi --execute=true`, self-contained, no submission. */
export function roleVector(name: string, schema: string, captureOperation: string, binding: readonly GoJson[]): { [key: string]: GoJson } {
  return {
    name,
    schema,
    capture_operation: captureOperation,
    arguments: [...binding, argument("agent", "pi"), argument("execute", "true")],
  };
}
