import type { GoldenCall, GoldenOutcome } from "./golden-schema.ts";
import { blobBytes } from "../../simulator/output/transcript.ts";

/** The first place a run differs from its golden. */
export interface Divergence {
  /** `call <i>` or `outcome of step <i>`. */
  readonly where: string;
  /** Dotted field path, e.g. `argv[7]`, `stdout`, `files[0].bytes`. */
  readonly field: string;
  readonly expected: Buffer | undefined;
  readonly actual: Buffer | undefined;
}

const text = (s: string): Buffer => Buffer.from(s, "utf8");
const json = (v: unknown): Buffer => text(JSON.stringify(v) ?? "undefined");

function differs(a: Buffer | undefined, b: Buffer | undefined): boolean {
  if (a === undefined || b === undefined) return a !== b;
  return !a.equals(b);
}

function callFields(call: GoldenCall): [string, Buffer][] {
  const fields: [string, Buffer][] = [
    ["program", text(call.program)],
    ["argv.length", text(String(call.argv.length))],
  ];
  call.argv.forEach((a, i) => fields.push([`argv[${i}]`, text(a)]));
  fields.push(["cwd", text(call.cwd)]);
  fields.push(["cwdListing", json(call.cwdListing ?? null)]);
  fields.push(["handshake", json(call.handshake)]);
  fields.push(["stdin", blobBytes(call.stdin)]);
  fields.push(["files.length", text(String(call.files.length))]);
  call.files.forEach((f, i) => {
    fields.push([`files[${i}].path`, text(f.path)]);
    fields.push([`files[${i}].bytes`, blobBytes(f)]);
  });
  fields.push(["stdout", blobBytes(call.stdout)]);
  fields.push(["stderr", blobBytes(call.stderr)]);
  fields.push(["exit", json(call.exit)]);
  return fields;
}

function outcomeFields(outcome: GoldenOutcome): [string, Buffer][] {
  return Object.entries(outcome).map(([k, v]) => [k, typeof v === "string" ? text(v) : json(v)]);
}

function firstFieldDivergence(
  where: string,
  expected: [string, Buffer][],
  actual: [string, Buffer][],
): Divergence | undefined {
  const actualMap = new Map(actual);
  for (const [field, want] of expected) {
    const got = actualMap.get(field);
    if (differs(want, got)) return { where, field, expected: want, actual: got };
  }
  const expectedNames = new Set(expected.map(([f]) => f));
  const extra = actual.find(([f]) => !expectedNames.has(f));
  return extra === undefined ? undefined : { where, field: extra[0], expected: undefined, actual: extra[1] };
}

function describeCall(call: GoldenCall): string {
  return `${call.program} ${call.argv.slice(0, 2).join(" ")}`.trim();
}

/** Compares calls in order, then step outcomes; returns the first divergence or undefined. */
export function firstDivergence(
  expected: { calls: readonly GoldenCall[]; outcomes: readonly GoldenOutcome[] },
  actual: { calls: readonly GoldenCall[]; outcomes: readonly GoldenOutcome[] },
): Divergence | undefined {
  const n = Math.max(expected.calls.length, actual.calls.length);
  for (let i = 0; i < n; i += 1) {
    const want = expected.calls[i];
    const got = actual.calls[i];
    if (want === undefined)
      return {
        where: `call ${i} (${describeCall(got!)})`,
        field: "call",
        expected: undefined,
        actual: json(got!.argv),
      };
    if (got === undefined)
      return {
        where: `call ${i} (${describeCall(want)})`,
        field: "call",
        expected: json(want.argv),
        actual: undefined,
      };
    const d = firstFieldDivergence(`call ${i} (${describeCall(want)})`, callFields(want), callFields(got));
    if (d) return d;
  }
  const m = Math.max(expected.outcomes.length, actual.outcomes.length);
  for (let i = 0; i < m; i += 1) {
    const want = expected.outcomes[i];
    const got = actual.outcomes[i];
    if (want === undefined || got === undefined) {
      return {
        where: `outcome of step ${i}`,
        field: "outcome",
        expected: want && json(want),
        actual: got && json(got),
      };
    }
    const d = firstFieldDivergence(`outcome of step ${i}`, outcomeFields(want), outcomeFields(got));
    if (d) return d;
  }
  return undefined;
}

/** Escaped rendering: printable ASCII as is, common escapes, every other byte as \xHH. */
export function escapeBytes(bytes: Buffer): string {
  let out = "";
  for (const b of bytes) {
    if (b === 0x5c) out += "\\\\";
    else if (b === 0x0a) out += "\\n";
    else if (b === 0x0d) out += "\\r";
    else if (b === 0x09) out += "\\t";
    else if (b === 0x22) out += '\\"';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, "0")}`;
  }
  return out;
}

function hex(bytes: Buffer): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ");
}

function firstDiffOffset(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) if (a[i] !== b[i]) return i;
  return n;
}

const CONTEXT = 24;
const EXPECTED_MAX = 512;

function window(bytes: Buffer, offset: number): string {
  const start = Math.max(0, offset - CONTEXT);
  const end = Math.min(bytes.length, offset + CONTEXT);
  return `${start > 0 ? "…" : ""}"${escapeBytes(bytes.subarray(start, end))}"${end < bytes.length ? "…" : ""}`;
}

/**
 * Human-readable, binary-safe report of a divergence: where, which field, the bytes around the first difference, and
 * the expected value.
 */
export function renderDivergence(golden: string, d: Divergence): string {
  const lines = [`golden ${golden}: divergence at ${d.where}, field ${d.field}`];
  if (d.expected === undefined) {
    lines.push("  expected: (nothing: the golden has no such call/field)");
    lines.push(`  actual:   "${escapeBytes(d.actual!.subarray(0, EXPECTED_MAX))}"`);
    return lines.join("\n");
  }
  if (d.actual === undefined) {
    lines.push("  actual:   (nothing: the relay never made this call)");
    lines.push(`  expected: "${escapeBytes(d.expected.subarray(0, EXPECTED_MAX))}"`);
    return lines.join("\n");
  }
  const offset = firstDiffOffset(d.expected, d.actual);
  const start = Math.max(0, offset - CONTEXT);
  lines.push(
    `  first differing byte at offset ${offset} (expected ${d.expected.length} bytes, actual ${d.actual.length} bytes)`,
  );
  lines.push(`  expected: ${window(d.expected, offset)}`);
  lines.push(`  actual:   ${window(d.actual, offset)}`);
  lines.push(`  expected hex @${start}: ${hex(d.expected.subarray(start, offset + CONTEXT))}`);
  lines.push(`  actual hex   @${start}: ${hex(d.actual.subarray(start, offset + CONTEXT))}`);
  const full =
    d.expected.length > EXPECTED_MAX
      ? `${escapeBytes(d.expected.subarray(0, EXPECTED_MAX))}… (${d.expected.length} bytes)`
      : escapeBytes(d.expected);
  lines.push(`  expected value: "${full}"`);
  return lines.join("\n");
}
