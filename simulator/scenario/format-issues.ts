import type * as z from "zod/mini";

type Issue = z.core.$ZodIssue;
type Key = PropertyKey;

/** Renders a zod path as a JSONPath such as `$.lineage.lenses[0]`. */
export function jsonPath(path: readonly Key[]): string {
  let out = "$";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/**
 * Flattens zod issues into `<json path>: <reason>` lines; unions report their closest branch when one is unambiguous.
 */
export function formatIssues(issues: readonly Issue[], prefix: readonly Key[] = []): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) lines.push(`${jsonPath([...path, key])}: Unrecognized key: ${JSON.stringify(key)}`);
    } else if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const sizes = issue.errors.map((branch) => branch.length);
      const best = Math.min(...sizes);
      const closest = issue.errors.filter((branch) => branch.length === best);
      if (closest.length === 1) lines.push(...formatIssues(closest[0]!, path));
      else lines.push(`${jsonPath(path)}: ${issue.message}`);
    } else {
      lines.push(`${jsonPath(path)}: ${issue.message}`);
    }
  }
  return lines;
}
