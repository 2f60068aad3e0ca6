// Two sides' normalised calls of one phase, compared in start order: the first field of the first call that differs.
import type { NormalCall } from "./normalise.ts";
import type { Divergence } from "./report-schema.ts";
import type { HashPairing } from "./pairing.ts";

/** The fields of a call in the order they are compared (and a divergence names). */
const FIELDS = ["program", "argv", "handshake", "stdin", "files", "exit", "stdout", "stderr"] as const;
type Field = (typeof FIELDS)[number];

function bytesOf(call: NormalCall, field: Field): Buffer {
  switch (field) {
    case "stdin":
    case "stdout":
    case "stderr":
      return call[field];
    case "argv":
      return Buffer.from(JSON.stringify(call.argv), "utf8");
    case "files":
      // Raw bytes, each file after its path: hashes inside a file are paired like any other.
      return Buffer.concat(call.files.flatMap((f) => [Buffer.from(`${f.path}\n`, "utf8"), f.bytes, Buffer.from("\n")]));
    case "handshake":
      return Buffer.from(String(call.handshake), "utf8");
    case "program":
    case "exit":
      return Buffer.from(call[field], "utf8");
  }
}

/** The index of the first byte where a and b differ (the shorter length when one is a prefix of the other). */
export function firstDifference(a: Buffer, b: Buffer): number | undefined {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? undefined : n;
}

/** What a report shows of one side's bytes: text when they are UTF-8, else base64. */
export function shown(bytes: Buffer): { text: string } | { base64: string } {
  const text = bytes.toString("utf8");
  return Buffer.from(text, "utf8").equals(bytes) ? { text } : { base64: bytes.toString("base64") };
}

function callOf(call: NormalCall): Divergence["call"] {
  return { program: call.program, argv: [...call.argv], handshake: call.handshake, stdin: shown(call.stdin) };
}

/** The first differing field of one pair of calls (hashes compared through the pairing), or undefined. */
function compareCall(
  phase: number,
  index: number,
  a: NormalCall,
  b: NormalCall,
  pairing: HashPairing,
): Divergence | undefined {
  let shownArgv: readonly string[] | undefined;
  for (const field of FIELDS) {
    const { binary: x, simulator: y } = pairing.field(bytesOf(a, field), bytesOf(b, field));
    if (field === "argv") shownArgv = JSON.parse(x.toString("utf8")) as string[];
    const offset = firstDifference(x, y);
    if (offset !== undefined)
      return {
        phase,
        index,
        field,
        offset,
        call: { ...callOf(a), argv: [...(shownArgv ?? a.argv)] },
        binary: shown(x),
        simulator: shown(y),
      };
  }
  return undefined;
}

/**
 * Every divergence between the binary's calls and the simulator's in one phase, call by call in start order; when
 * one side made more calls, the first extra call closes the list.
 */
export function comparePhase(
  phase: number,
  binary: readonly NormalCall[],
  simulator: readonly NormalCall[],
  pairing: HashPairing,
): Divergence[] {
  const n = Math.min(binary.length, simulator.length);
  const found: Divergence[] = [];
  for (let i = 0; i < n; i++) {
    const d = compareCall(phase, i + 1, binary[i] as NormalCall, simulator[i] as NormalCall, pairing);
    if (d) found.push(d);
  }
  if (binary.length === simulator.length) return found;
  const extra = (binary.length > simulator.length ? binary[n] : simulator[n]) as NormalCall;
  found.push({
    phase,
    index: n + 1,
    field: "calls",
    offset: 0,
    call: callOf(extra),
    binary: { text: `${binary.length} calls` },
    simulator: { text: `${simulator.length} calls` },
  });
  return found;
}
