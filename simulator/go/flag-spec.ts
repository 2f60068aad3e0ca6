// The declarative shape of a Go FlagSet, shared by the parser (go-flags.ts) and the usage block (usage.ts).
export type FlagKind = "string" | "bool" | "int";

/** One defined flag; `default` is the Go default value (string "" / false / 0 when absent). */
export interface FlagDef {
  readonly name: string;
  readonly kind: FlagKind;
  readonly usage: string;
  readonly default?: string | boolean | number;
  /**
   * A `flag.Var` string whose `Set` refuses a second value (reviewSingleValueFlag): the error it returns, which the
   * parse reports at that occurrence as `invalid value %q for flag -name: <setError>`.
   */
  readonly setError?: string;
}

/** A declarative FlagSet: `name` is printed in the usage line (e.g. `review capture-result`). */
export interface FlagSetSpec {
  readonly name: string;
  readonly details: string;
  readonly flags: readonly FlagDef[];
}
