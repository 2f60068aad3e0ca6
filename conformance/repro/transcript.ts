import { existsSync, readFileSync } from "node:fs";
import { classifyCall } from "../../simulator/runtime/classify-call.ts";

/** One simulator call as the repro runner reads it back from the transcript. */
export interface SimCall {
  readonly program: "gentle-ai" | "pi";
  readonly argv: readonly string[];
  readonly verb: string | undefined;
  readonly leg: string | undefined;
  readonly handshake: string | null;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly completed: boolean;
  readonly stdout: Buffer | undefined;
  readonly stderr: Buffer | undefined;
  readonly stdoutLength: number;
  readonly stderrLength: number;
}

function blob(b: unknown): { bytes: Buffer | undefined; length: number } {
  const o = (b ?? {}) as { base64?: unknown; length?: unknown };
  const bytes = typeof o.base64 === "string" ? Buffer.from(o.base64, "base64") : undefined;
  return { bytes, length: typeof o.length === "number" ? o.length : (bytes?.length ?? 0) };
}

/** The gentle-ai verb of an argv (`review finalize` → `finalize`, `version` → `version`). */
export function verbOf(argv: readonly string[]): string | undefined {
  if (argv[0] === "review") return argv[1];
  return argv[0];
}

/** Reads the transcript lines from index `from` on; unreadable lines are skipped (a crash mid-write). */
export function readCalls(path: string, from = 0): SimCall[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const calls: SimCall[] = [];
  for (const line of lines.slice(from)) {
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const argv = Array.isArray(e["argv"]) ? (e["argv"] as unknown[]).map(String) : [];
    const program = e["program"] === "pi" ? "pi" : "gentle-ai";
    const exit = (e["exit"] ?? {}) as { code?: unknown; signal?: unknown; completed?: unknown };
    const out = blob(e["stdout"]);
    const err = blob(e["stderr"]);
    // A recording shim's line carries no classification: it is classified here the way the simulator does it.
    const cls = classifyCall(program, argv);
    const verb =
      typeof e["verb"] === "string"
        ? (e["verb"] as string).replace(/^review /, "")
        : program === "gentle-ai"
          ? verbOf(argv)
          : undefined;
    calls.push({
      program,
      argv,
      verb,
      leg: typeof e["leg"] === "string" ? (e["leg"] as string) : cls.leg,
      handshake: typeof e["handshake"] === "string" ? (e["handshake"] as string) : null,
      exitCode: typeof exit.code === "number" ? exit.code : null,
      signal: typeof exit.signal === "string" ? exit.signal : null,
      completed: exit.completed !== false,
      stdout: out.bytes,
      stderr: err.bytes,
      stdoutLength: out.length,
      stderrLength: err.length,
    });
  }
  return calls;
}

/** Number of transcript lines so far (a step's calls are the lines after this mark). */
export function transcriptMark(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "").length;
}

/** How many calls a name counts: `pi`, `gentle-ai`, a verb (`finalize`), or verb:leg (`capture-result:submit`). */
export function countCalls(calls: readonly SimCall[], name: string): number {
  return calls.filter((c) => {
    if (name === "pi" || name === "gentle-ai") return c.program === name;
    if (c.program !== "gentle-ai") return false;
    const [verb, leg] = name.split(":");
    return c.verb === verb && (leg === undefined || c.leg === leg);
  }).length;
}
