// Hostile relays that hang in one leg on every call that reaches it, the way real relay defects do (gentle-pi's pi
// leg that never closed pi's stdin): our relay, with node:child_process's spawn wrapped for that leg's program.
// - pi: the relay never closes pi's stdin, so pi waits for the end of its prompt for ever;
// - materialize, submit: the relay never hears that gentle-ai ended (its `close` and `exit` events are lost).
// Our relay keeps its own bounds (120 s for gentle-ai, 15 min for pi): far past the harness's, so each call hangs.
import type { ChildProcess } from "node:child_process";
import { createRequire, syncBuiltinESMExports } from "node:module";

type Leg = "materialize" | "pi" | "submit";
type Spawn = (file: string, args: readonly string[], options: unknown) => ChildProcess;

const childProcess = createRequire(import.meta.url)("node:child_process") as { spawn: Spawn };

/** The leg a relay launch belongs to, from its argv. */
function legOf(file: string, args: readonly string[]): Leg | null {
  if (/(^|\/)pi$/.test(file)) return "pi";
  if (!/(^|\/)gentle-ai$/.test(file)) return null;
  return args.includes("--materialize=true") ? "materialize" : "submit";
}

/** Wraps spawn so that every launch of `leg` hangs (see the file comment). */
export function hangIn(leg: Leg): void {
  const original = childProcess.spawn;
  childProcess.spawn = (file, args, options) => {
    const child = original(file, args, options);
    if (legOf(file, args) !== leg) return child;
    if (leg === "pi") {
      const stdin = child.stdin;
      if (stdin)
        stdin.end = ((...rest: unknown[]) => {
          const chunk = rest.find((r) => Buffer.isBuffer(r) || typeof r === "string") as Buffer | string | undefined;
          if (chunk !== undefined) stdin.write(chunk);
          return stdin;
        }) as typeof stdin.end;
      return child;
    }
    const emit = child.emit.bind(child);
    child.emit = ((event: string | symbol, ...rest: unknown[]) =>
      event === "close" || event === "exit" ? false : emit(event, ...rest)) as typeof child.emit;
    return child;
  };
  // A relay loaded by jiti, as Pi loads one, sees builtins through their ES module namespace: publish the wrap there.
  syncBuiltinESMExports();
}
