import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STEP_COMMANDS } from "../../../conformance/repro/format.ts";
import { parseReproduction } from "../../../conformance/repro/parse.ts";
import { packageRoot } from "../../../conformance/paths.ts";

const DOC = readFileSync(join(packageRoot(), "golden", "FORMAT.md"), "utf8");
/** Every line a script may start with that is not a step or an assertion. */
const DIRECTIVES = ["title", "issue", "id", "phase", "scenario", "repo", "profile", "stdin"];

/** The fenced txtar examples under one `### \`name\`` heading. */
function examples(name: string): string[] {
  const start = DOC.indexOf(`### \`${name}\`\n`);
  if (start < 0) return [];
  const end = DOC.indexOf("\n### ", start + 1);
  const body = DOC.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(/```txtar\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

describe("golden/FORMAT.md documents the scenario language", () => {
  it.each([...DIRECTIVES, ...STEP_COMMANDS])("`%s` has its section and one example that parses", (name) => {
    const found = examples(name);
    expect(found.length, `golden/FORMAT.md has no "### \`${name}\`" section with a txtar example`).toBe(1);
    const repro = parseReproduction(found[0] as string, `format-${name.replace(/[^a-z-]/g, "")}.txtar`);
    const used = repro.phases.flatMap((p) => p.steps.map((s) => s.command));
    if ((STEP_COMMANDS as readonly string[]).includes(name)) expect(used).toContain(name);
  });

  it("documents nothing the step table lacks", () => {
    const headings = [...DOC.matchAll(/^### `([^`]+)`$/gm)].map((m) => m[1]);
    expect(
      headings.filter(
        (h) => !DIRECTIVES.includes(h as string) && !(STEP_COMMANDS as readonly string[]).includes(h as string),
      ),
    ).toEqual([]);
  });
});
