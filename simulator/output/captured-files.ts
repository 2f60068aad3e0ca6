// The files a call is handed by path, found from its argv alone: the recorder's shims (conformance/record/) capture
// them, and the simulator's replayer (simulator/runtime/replay.ts) records them the same way.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";

// Reviewer results and evidence are bounded at 4 MiB by the provider; the cap only stops a runaway read.
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A file a call was handed by path, read before the callee could change or the caller delete it. */
export interface CapturedFile {
  readonly path: string;
  readonly bytes: Buffer;
}

/**
 * Files a call receives by path: every flag value (`--x=v`, or the token after a bare `--x`) and positional that
 * names an existing regular file. This is how a recorder sees the submitted result without knowing any verb.
 */
export function capturedInputFiles(argv: readonly string[], cwd: string): CapturedFile[] {
  return inputFilePaths(argv, cwd).flatMap((path) => {
    try {
      return [{ path, bytes: readFileSync(isAbsolute(path) ? path : resolve(cwd, path)) }];
    } catch {
      return []; // gone since it was found: as if it had never been there
    }
  });
}

/** The argv values (as spelled) that name an existing regular file within the size cap; see capturedInputFiles. */
export function inputFilePaths(argv: readonly string[], cwd: string): string[] {
  const candidates: string[] = [];
  argv.forEach((token, i) => {
    if (token.startsWith("-")) {
      const eq = token.indexOf("=");
      if (eq > 0) candidates.push(token.slice(eq + 1));
      else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("-")) candidates.push(argv[i + 1]!);
    } else candidates.push(token);
  });
  const seen = new Set<string>();
  const paths: string[] = [];
  for (const value of candidates) {
    if (value === "" || value === "-" || seen.has(value)) continue;
    seen.add(value);
    const full = isAbsolute(value) ? value : resolve(cwd, value);
    try {
      const st = statSync(full);
      if (!st.isFile() || st.size > MAX_FILE_BYTES) continue;
      paths.push(value);
    } catch {
      // Not a file: an ordinary flag value.
    }
  }
  return paths;
}
