// The differential run's normalisation: the documented rules that make two runs of one script comparable byte for
// byte (docs/differential.md lists each with its reason and a pointer into gentle-ai's source). Hashes are left for
// the pairing (pairing.ts); everything no rule touches is compared raw.
import type { TranscriptEntry } from "../../simulator/output/transcript-schema.ts";
import { blobBytes } from "../../simulator/output/transcript.ts";
import { normaliseBytes, placeholderRules, type PlaceholderRule } from "../../simulator/output/path-placeholders.ts";

/** One call as the differential run compares it: every field bytes or text after normalisation. */
export interface NormalCall {
  readonly program: "gentle-ai" | "pi";
  readonly argv: readonly string[];
  /** The handshake variable: the only environment value that differs between the calls of a world. */
  readonly handshake: string | null;
  readonly stdin: Buffer;
  readonly files: readonly { readonly path: string; readonly bytes: Buffer }[];
  readonly exit: string;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

/** The paths of one world: the same on both sides, replaced by placeholders so reports read the same on every run. */
export interface WorldPaths {
  readonly root: string;
  readonly work: string;
  readonly home: string;
  readonly tmp: string;
  readonly state: string;
}

/** A rule that masks what varies between runs or builds; `why` is its documented reason. */
interface MaskRule {
  readonly name: string;
  readonly pattern: RegExp;
  readonly replace: string;
}

/** Masks applied before renaming hashes, so a masked value takes no ordinal. */
export const MASK_RULES: readonly MaskRule[] = [
  // capabilities: the build block reports the toolchain and VCS stamp, which differ between builds of one commit.
  { name: "capabilities build block", pattern: /("build": \{)[^}]*(\})/g, replace: "$1<BUILD>$2" },
  // capabilities: executable.sha256 hashes the running file (review_capabilities.go).
  {
    name: "executable.sha256",
    pattern: /("executable": \{\s*"sha256": ")sha256:[0-9a-f]{64}(")/g,
    replace: "$1<EXECUTABLE>$2",
  },
  // review_defect_report.go: `<slug>-<12 hex of clock and vcs.revision>.md`.
  { name: "defect-report file name", pattern: /([a-z0-9-]+)-[0-9a-f]{12}\.md\b/g, replace: "$1-<DEFECT>.md" },
  // RFC 3339 timestamps (clone-mode recorded_at, maintenance records).
  {
    name: "RFC 3339 timestamp",
    pattern: /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g,
    replace: "<TIME>",
  },
];

function pathRules(paths: WorldPaths): PlaceholderRule[] {
  const rules = placeholderRules({ cwd: paths.work, tmp: paths.tmp, state: paths.state });
  rules.push({ from: paths.home, to: "<HOME>" }, { from: paths.root, to: "<WORLD>" });
  return rules.sort((a, b) => b.from.length - a.from.length);
}

/** Normalises bytes with the path and mask rules; hashes stay, to be paired across the two sides (pairing.ts). */
function normaliseBuffer(bytes: Buffer, rules: readonly PlaceholderRule[]): Buffer {
  let text = normaliseBytes(bytes, rules).toString("latin1");
  for (const m of MASK_RULES) text = text.replace(m.pattern, m.replace);
  return Buffer.from(text, "latin1");
}

/** Normalises one phase's calls, in start order, by the path and mask rules. */
export function normaliseCalls(entries: readonly TranscriptEntry[], paths: WorldPaths): NormalCall[] {
  const rules = pathRules(paths);
  const text = (s: string): string => normaliseBuffer(Buffer.from(s, "utf8"), rules).toString("utf8");
  const bytes = (b: { readonly base64?: string | undefined }): Buffer => normaliseBuffer(blobBytes(b), rules);
  return entries.map((e) => ({
    program: e.program,
    argv: e.argv.map(text),
    handshake: e.handshake,
    stdin: bytes(e.stdin),
    files: e.files.map((f) => ({ path: text(f.path), bytes: bytes(f) })),
    exit: e.exit.signal !== null ? `signal ${e.exit.signal}` : `exit ${e.exit.code ?? "?"}`,
    stdout: bytes(e.stdout),
    stderr: bytes(e.stderr),
  }));
}
