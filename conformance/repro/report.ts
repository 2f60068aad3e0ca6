import type { Outcome } from "./outcome.ts";
import type { SimCall } from "./transcript.ts";
import { HANDSHAKE_VALUE } from "../contract/provider.ts";

function short(v: string): string {
  // Long digests stay recognisable (prefix kept, so bare vs sha256: shows) without flooding the report.
  return v.replace(/\b(sha256:)?([0-9a-f]{12})[0-9a-f]{52}\b/g, "$1$2…");
}

/** Quotes an argv word only when it needs it. */
export function showWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./{}$-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`;
}

/** One line saying what a stdout holds: chosen JSON keys, or the first text line and the size. */
export function summariseStdout(bytes: Buffer | undefined, length: number): string {
  if (!bytes) return length === 0 ? "(empty)" : `${length} bytes (not recorded)`;
  if (bytes.length === 0) return "(empty)";
  const text = bytes.toString("utf8");
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    if (typeof j === "object" && j !== null && !Array.isArray(j)) {
      const authority = (j["authority"] ?? {}) as Record<string, unknown>;
      const next = (j["next_transition"] ?? {}) as Record<string, unknown>;
      const picks: [string, unknown][] = [
        ["schema", j["schema"]],
        ["state", authority["state"] ?? j["state"]],
        ["reason_code", next["reason_code"]],
        ["code", j["code"]],
        ["mutation_outcome", j["mutation_outcome"]],
        ["cause", j["cause"]],
        ["admission_decision", j["admission_decision"]],
        ["authority_revision", j["authority_revision"]],
        ["target_identity", j["target_identity"]],
        ["outcome", j["outcome"]],
      ];
      const parts = picks
        .filter(([, v]) => typeof v === "string" || typeof v === "number")
        .map(([k, v]) => `${k}=${short(JSON.stringify(v))}`);
      return `${parts.join(" ")} (${bytes.length} bytes JSON)`;
    }
  } catch {
    // Not JSON: show the first line.
  }
  const first = text.split("\n")[0] as string;
  return `${JSON.stringify(short(first.length > 100 ? first.slice(0, 100) + "…" : first))}${text.includes("\n", first.length) && text.length > first.length + 1 ? " …" : ""} (${bytes.length} bytes)`;
}

/** The report lines of one simulator call: the argv, then exit, stderr and key stdout. */
export function callLines(c: SimCall, redact: (s: string) => string): string[] {
  const argv = c.argv.map((w) => showWord(redact(w))).join(" ");
  const hs =
    c.program === "gentle-ai" &&
    c.handshake !== HANDSHAKE_VALUE &&
    (c.verb === "capture-result" || c.verb === "capture-refuter" || c.verb === "capture-validation")
      ? c.handshake === null
        ? " [handshake unset]"
        : ` [handshake ${JSON.stringify(c.handshake)}]`
      : "";
  const lines = [`$ ${c.program} ${short(argv)}${hs}`];
  const exit = c.completed
    ? c.exitCode !== null
      ? `exit ${c.exitCode}`
      : `signal ${c.signal ?? "?"}`
    : "killed (did not complete)";
  lines.push(`  -> ${exit}`);
  if (c.stderrLength > 0)
    lines.push(
      `     stderr: ${c.stderr ? JSON.stringify(redact(c.stderr.toString("utf8"))) : `${c.stderrLength} bytes`}`,
    );
  if (c.program === "pi") lines.push(`     stdout: ${c.stdoutLength} bytes`);
  else lines.push(`     stdout: ${redact(summariseStdout(c.stdout, c.stdoutLength))}`);
  return lines;
}

const LEAD = ["name", "kind", "stage", "code", "mutationOutcome", "exitCode", "timedOut", "elapsedMs", "timeoutMs"];

/** The step's result line(s): `=> ok …` or `=> <error fields>: message`. */
export function outcomeLines(o: Outcome, redact: (s: string) => string): string[] {
  if (o["ok"] === true) {
    const keys = Object.keys(o).filter(
      (k) =>
        k !== "ok" &&
        k !== "submission" &&
        k !== "stdout" &&
        !k.startsWith("slot") &&
        !k.startsWith("validation_request."),
    );
    const parts = keys.slice(0, 10).map((k) => `${k}=${short(JSON.stringify(o[k]))}`);
    return [`=> ok ${parts.join(" ")}`.trimEnd()];
  }
  const parts = LEAD.filter((k) => o[k] !== undefined && o[k] !== null && o[k] !== "").map(
    (k) => `${k}=${typeof o[k] === "string" ? o[k] : JSON.stringify(o[k])}`,
  );
  const message = redact(String(o["message"] ?? ""));
  return [`=> error ${parts.join(" ")}`, `   message: ${JSON.stringify(message)}`];
}
