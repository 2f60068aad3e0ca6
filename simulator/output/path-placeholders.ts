// The path placeholders of recorded calls (<CWD>, <TMP>, <STATE>, <GENTLE_AI>, <PI>, and <X> for mkdtemp tails): the
// harness normalises recorded bytes with them and the simulator's replayer (simulator/runtime/replay.ts) reverses them.
import { realpathSync } from "node:fs";

/** The run-specific absolute paths that become placeholders in a golden. */
export interface NormaliseContext {
  readonly cwd: string;
  readonly tmp: string;
  readonly state?: string;
  readonly gentleAi?: string;
  readonly pi?: string;
}

/** One replacement: an absolute path and the placeholder it becomes. */
export interface PlaceholderRule {
  readonly from: string;
  readonly to: string;
}

// mkdtemp / Go MkdirTemp suffixes: the random tail after the last dash of a directory directly under <TMP>.
const TEMP_SUFFIX = /(<TMP>\/[A-Za-z][A-Za-z0-9._-]*-)[A-Za-z0-9]{6,}/g;

function variants(path: string): string[] {
  const out = new Set([path]);
  try {
    out.add(realpathSync(path));
  } catch {
    // A path that no longer exists keeps only its spelled form.
  }
  return [...out].filter((p) => p.length > 1);
}

/** Replacement rules, longest path first so a nested path never half-matches its parent. */
export function placeholderRules(context: NormaliseContext): PlaceholderRule[] {
  const rules: PlaceholderRule[] = [];
  const add = (path: string | undefined, to: string): void => {
    if (path !== undefined) for (const from of variants(path)) rules.push({ from, to });
  };
  add(context.gentleAi, "<GENTLE_AI>");
  add(context.pi, "<PI>");
  add(context.state, "<STATE>");
  add(context.cwd, "<CWD>");
  add(context.tmp, "<TMP>");
  return rules.sort((a, b) => b.from.length - a.from.length);
}

/** Applies the placeholder rules to a string (paths, messages, argv tokens). */
export function normaliseText(text: string, rules: readonly PlaceholderRule[]): string {
  let out = text;
  for (const rule of rules) out = out.split(rule.from).join(rule.to);
  return out.replace(TEMP_SUFFIX, "$1<X>");
}

/** Byte-exact variant of normaliseText: works on the latin1 view so non-UTF-8 bytes survive untouched. */
export function normaliseBytes(bytes: Buffer, rules: readonly PlaceholderRule[]): Buffer {
  const latin1Rules = rules.map((r) => ({ from: Buffer.from(r.from, "utf8").toString("latin1"), to: r.to }));
  const text = bytes.toString("latin1");
  const out = normaliseText(text, latin1Rules);
  return out === text ? bytes : Buffer.from(out, "latin1");
}

function placeholderPairs(context: NormaliseContext): [string, string | undefined][] {
  return [
    ["<GENTLE_AI>", context.gentleAi],
    ["<PI>", context.pi],
    ["<STATE>", context.state],
    ["<CWD>", context.cwd],
    ["<TMP>", context.tmp],
  ];
}

/** Reverses the placeholders (not `<X>`) in text so it mentions this run's real paths. */
export function denormaliseText(text: string, context: NormaliseContext): string {
  let out = text;
  for (const [placeholder, value] of placeholderPairs(context))
    if (value !== undefined) out = out.split(placeholder).join(value);
  return out;
}

/** Reverses the placeholders (not `<X>`) so recorded bytes mention this run's real paths; latin1 keeps every byte. */
export function denormaliseBytes(bytes: Buffer, context: NormaliseContext): Buffer {
  let text = bytes.toString("latin1");
  for (const [placeholder, value] of placeholderPairs(context)) {
    if (value !== undefined) text = text.split(placeholder).join(Buffer.from(value, "utf8").toString("latin1"));
  }
  return Buffer.from(text, "latin1");
}
