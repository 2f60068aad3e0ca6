// Go os.ReadFile error texts for a Node fs error (`open <path>: no such file or directory`, …), and the verbs' input
// read.
import type { Invocation } from "../../invocation.ts";
import { invalidRequest } from "../../refusal.ts";

const GO_ERRNO: Readonly<Record<string, [op: string, text: string]>> = {
  ENOENT: ["open", "no such file or directory"],
  EACCES: ["open", "permission denied"],
  EPERM: ["open", "operation not permitted"],
  ENOTDIR: ["open", "not a directory"],
  ELOOP: ["open", "too many levels of symbolic links"],
  ENAMETOOLONG: ["open", "file name too long"],
  EISDIR: ["read", "is a directory"],
  EIO: ["read", "input/output error"],
};

/** Renders a read failure as Go's *PathError text for the path as given on the command line (`op`: an os.Stat). */
export function readInputError(error: unknown, path: string, op?: "stat"): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
  const known = GO_ERRNO[code];
  if (known) return `${op ?? known[0]} ${path}: ${known[1]}`;
  return `read ${path}: ${error instanceof Error ? error.message : String(error)}`;
}

/** Reads a document named on the command line (`-` for stdin); a failure refuses with `read <what>: <Go error>`. */
export function readInputDocument(invocation: Invocation, path: string, what: string): Buffer {
  try {
    return path === "-" ? invocation.readStdin() : invocation.readFile(path);
  } catch (error) {
    throw invalidRequest(`read ${what}: ${readInputError(error, path)}`);
  }
}
