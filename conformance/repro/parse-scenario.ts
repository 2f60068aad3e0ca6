// A script's `scenario SOURCE [path=value …]` line: the simulator scenario of a phase, read from a section of the
// file or a `.json` path next to it, with dotted-path overrides, validated against the simulator's own schema.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ScenarioSchema } from "../../simulator/scenario/schema.ts";
import type { ScenarioRef } from "./format.ts";
import type { ParseContext } from "./parse-context.ts";

/** Reads a scenario line's words (after `scenario`); reports every problem and returns undefined on a bad one. */
export function parseScenarioLine(ctx: ParseContext, line: number, words: readonly string[]): ScenarioRef | undefined {
  const [source, ...sets] = words;
  if (source === undefined) return ctx.fail(line, "scenario needs a section name or a path");
  const found = scenarioText(ctx, line, source);
  if (!found) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(found.text);
  } catch (e) {
    return ctx.fail(line, `scenario ${source}: not JSON: ${(e as Error).message}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return ctx.fail(line, `scenario ${source}: must be a JSON object`);
  const resolved = structuredClone(json) as Record<string, unknown>;
  const overrides: Record<string, unknown> = {};
  for (const s of sets) {
    const m = /^([A-Za-z$][A-Za-z0-9_.$]*)=(.*)$/s.exec(s);
    if (!m) return ctx.fail(line, `scenario: expected path=value override, got ${JSON.stringify(s)}`);
    const path = m[1] as string;
    const value = overrideValue((m[2] as string).replaceAll("$$", "$"));
    overrides[path] = value;
    setPath(resolved, path.split("."), value);
  }
  const checked = ScenarioSchema.safeParse(resolved);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      ctx.fail(line, `scenario ${source}: ${issue.path.length ? "$." + issue.path.join(".") : "$"}: ${issue.message}`);
    }
    return undefined;
  }
  return { line, source: found.ref, overrides, resolved };
}

/** The scenario's JSON text and where it came from: a section of the file first, else a `.json` path beside it. */
function scenarioText(
  ctx: ParseContext,
  line: number,
  source: string,
): { text: string; ref: ScenarioRef["source"] } | undefined {
  const section = ctx.sections.get(source);
  if (section) return { text: section.text, ref: { section: source } };
  if (!source.endsWith(".json")) return ctx.fail(line, `scenario ${source}: no section "-- ${source} --" in this file`);
  try {
    return { text: readFileSync(resolve(dirname(ctx.file), source), "utf8"), ref: { path: source } };
  } catch (e) {
    return ctx.fail(line, `scenario ${source}: not a section of this file and not readable: ${(e as Error).message}`);
  }
}

/** An override's value: JSON when it parses as JSON, else the bare word as a string. */
function overrideValue(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Sets `path` in `target`, replacing anything on the way that is not an object. */
function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
}
