import { accessSync, constants, statSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "./command.ts";

/** Resolves a flag naming an executable file (`--binary`) against cwd; bad input names the flag, the path and why. */
export function executableOption(flag: string, value: string, cwd: string): string {
  if (value === "") throw new UsageError(`${flag} needs a path`);
  const path = resolve(cwd, value);
  let why: string | undefined;
  try {
    if (!statSync(path).isFile()) why = "not a file";
    else accessSync(path, constants.X_OK);
  } catch (error) {
    why = `not an executable file (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`;
  }
  if (why !== undefined) throw new UsageError(`${flag} ${value}: ${why}`);
  return path;
}
