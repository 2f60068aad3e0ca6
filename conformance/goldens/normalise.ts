import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import type { TranscriptEntry } from "../../simulator/output/transcript-schema.ts";
import type { GoldenBlob, GoldenCall } from "./golden-schema.ts";

/** The run-specific absolute paths that become placeholders in a golden. */
export interface NormaliseContext {
  readonly cwd: string;
  readonly tmp: string;
  readonly state?: string;
  readonly gentleAi?: string;
  readonly pi?: string;
}

interface Rule {
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
export function placeholderRules(context: NormaliseContext): Rule[] {
  const rules: Rule[] = [];
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
export function normaliseText(text: string, rules: readonly Rule[]): string {
  let out = text;
  for (const rule of rules) out = out.split(rule.from).join(rule.to);
  return out.replace(TEMP_SUFFIX, "$1<X>");
}

/** Byte-exact variant of normaliseText: works on the latin1 view so non-UTF-8 bytes survive untouched. */
export function normaliseBytes(bytes: Buffer, rules: readonly Rule[]): Buffer {
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
  for (const [placeholder, value] of placeholderPairs(context)) if (value !== undefined) out = out.split(placeholder).join(value);
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

/** Digest, length and base64 of bytes. */
export function blobOf(bytes: Buffer): GoldenBlob {
  return { sha256: createHash("sha256").update(bytes).digest("hex"), length: bytes.length, base64: bytes.toString("base64") };
}

/** Decodes a golden blob back to bytes. */
export function blobBytes(blob: { base64?: string | undefined }): Buffer {
  return Buffer.from(blob.base64 ?? "", "base64");
}

function normaliseBlob(blob: { base64?: string | undefined; sha256: string; length: number }, rules: readonly Rule[]): GoldenBlob {
  if (blob.base64 === undefined) throw new Error(`transcript blob ${blob.sha256} has no content; record with inline content`);
  return blobOf(normaliseBytes(blobBytes(blob), rules));
}

/** Turns one transcript entry into a golden call: pid, timing, call index and faults dropped; paths replaced. */
export function normaliseCall(entry: TranscriptEntry, rules: readonly Rule[], nested = false): GoldenCall {
  return {
    program: entry.program,
    ...(nested ? { nested: true as const } : {}),
    argv: entry.argv.map((a) => normaliseText(a, rules)),
    cwd: normaliseText(entry.cwd, rules),
    ...(entry.cwdListing === undefined ? {} : { cwdListing: entry.cwdListing.map((n) => normaliseText(n, rules)) }),
    handshake: entry.handshake,
    stdin: normaliseBlob(entry.stdin, rules),
    files: entry.files.map((f) => ({ path: normaliseText(f.path, rules), ...normaliseBlob(f, rules) })),
    stdout: normaliseBlob(entry.stdout, rules),
    stderr: normaliseBlob(entry.stderr, rules),
    exit: { ...entry.exit },
  };
}

/**
 * Orders shim transcript lines by start (callIndex holds the start number; line order is the end order) and marks
 * calls that began and ended inside another call as nested.
 */
export function orderByStart(entries: readonly TranscriptEntry[]): { entry: TranscriptEntry; nested: boolean }[] {
  const withEnd = entries.map((entry, end) => ({ entry, end }));
  return withEnd
    .map(({ entry, end }) => ({
      entry,
      nested: withEnd.some((o) => o.entry.callIndex < entry.callIndex && o.end > end),
    }))
    .sort((a, b) => a.entry.callIndex - b.entry.callIndex);
}
