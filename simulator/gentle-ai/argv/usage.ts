// gentle-ai's custom FlagSet usage block (`newReviewFlagSet`, review.go:53-72); Go's default `Usage of <name>:` is
// never printed.
import type { FlagDef, FlagSetSpec } from "../../go/flag-spec.ts";
import { goQuoteStr } from "../../go/go-quote.ts";

/**
 * The flag's `DefValue`: what Go's `Value.String()` reports at definition. Bool and int flags always have one
 * (`"false"`, `"0"`), so review.go:64 (`if current.DefValue != ""`) prints their default even when it is the zero
 * value; string and `flag.Var` flags print one only when it is non-empty.
 */
export function defValue(f: FlagDef): string {
  if (f.kind === "bool") return String(f.default ?? false);
  if (f.kind === "int") return String(f.default ?? 0);
  return String(f.default ?? "");
}

/** Renders `Usage: gentle-ai <name> [flags]`, details, and one entry per flag in lexical name order (VisitAll). */
export function usageText(spec: FlagSetSpec): string {
  let out = `Usage: gentle-ai ${spec.name} [flags]\n\n${spec.details}\n\nFlags:\n`;
  const flags = [...spec.flags].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const f of flags) {
    // The placeholder is ` <value>` for every flag whose Value is not a bool flag (review.go:58-61).
    out += `  --${f.name}` + (f.kind === "bool" ? "" : " <value>") + `\n      ${f.usage}`;
    const def = defValue(f);
    if (def !== "") out += ` (default ${goQuoteStr(def)})`;
    out += "\n";
  }
  return out + "  -h, --help\n      show this help\n";
}
