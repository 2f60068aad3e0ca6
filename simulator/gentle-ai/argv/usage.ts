// gentle-ai's custom FlagSet usage block (provider reference §5); Go's default `Usage of <name>:` is never printed.
import type { FlagSetSpec } from "./go-flags.ts";

/** Renders `Usage: gentle-ai <name> [flags]`, details, and one entry per flag in lexical name order. */
export function usageText(spec: FlagSetSpec): string {
  let out = `Usage: gentle-ai ${spec.name} [flags]\n\n${spec.details}\n\nFlags:\n`;
  const flags = [...spec.flags].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const f of flags) {
    // (inferred) the value placeholder is the literal `<value>` for string and int flags alike.
    out += `  --${f.name}` + (f.kind === "bool" ? "" : " <value>") + `\n      ${f.usage}`;
    const def = f.kind === "bool" ? String(f.default ?? false) : String(f.default ?? "");
    if (def !== "") out += ` (default ${JSON.stringify(def)})`;
    out += "\n";
  }
  return out + "  -h, --help\n      show this help\n";
}
