import { listShipped, locate } from "./catalogue.ts";
import { parseDefects, type DefectId } from "./client-contract.ts";
import { ReproInputError } from "./modules.ts";
import { parseReproductionFile, ReproParseError } from "./parse.ts";
import { runReproduction } from "./run.ts";

export const REPRO_USAGE = `Usage: relay-conformance repro <id|file> [--against <module>] [--defects D1,D2,D3|none]
                               [--module <name>=<path>]... [--phase N[,N...]]
       relay-conformance repro --list

Runs an issue reproduction step by step against the simulator and prints each command, the provider's
answer and expected vs actual. Exit 0: behaves as documented; 1: a mismatch; 2: bad input.
  --against <module>  run the subject steps against another relay or client module (a .ts/.mjs path,
                      or a named module: ours, gentle-pi-2.1.2)
  --defects <list>    defects the subject client keeps (read by the defective variant)
  --module name=path  replace a module the file names (e.g. gentle-pi-2.1.2=./my-build-client.ts)
  --phase N[,N...]    run only these phases (1-based)
  --list              list the shipped reproductions with their titles`;

/** Output sinks (one call per line) and the directory relative paths resolve against. */
export interface ReproIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly cwd?: string;
}

const HINT = "Run `relay-conformance repro --help` for usage.";

/** `relay-conformance repro …`: returns the exit code (0 documented, 1 mismatch, 2 bad input). */
export async function reproCommand(argv: readonly string[], io: ReproIo): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  let target: string | undefined;
  let against: string | undefined;
  let defects: DefectId[] | undefined;
  let list = false;
  const modules: Record<string, string> = {};
  let phases: number[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = (flag: string): string | undefined => {
      if (a.startsWith(`${flag}=`)) return a.slice(flag.length + 1);
      const v = argv[i + 1];
      // Another option is never taken as the value (`--against --list`): that is a missing value.
      if (v === undefined || v.startsWith("--")) {
        io.err(`relay-conformance repro: ${flag} needs a value${v === undefined ? "" : ` (got the option ${JSON.stringify(v)})`}\n${HINT}`);
        return undefined;
      }
      i += 1;
      return v;
    };
    if (a === "--list") list = true;
    else if (a === "-h" || a === "--help") {
      io.out(REPRO_USAGE);
      return 0;
    } else if (a === "--against" || a.startsWith("--against=")) {
      against = value("--against");
      if (against === undefined) return 2;
    } else if (a === "--defects" || a.startsWith("--defects=")) {
      const v = value("--defects");
      if (v === undefined) return 2;
      try {
        defects = parseDefects(v);
      } catch (e) {
        io.err(`relay-conformance repro: --defects: ${(e as Error).message}`);
        return 2;
      }
    } else if (a === "--module" || a.startsWith("--module=")) {
      const v = value("--module");
      if (v === undefined) return 2;
      const eq = v.indexOf("=");
      if (eq <= 0 || eq === v.length - 1) {
        io.err(`relay-conformance repro: --module takes name=path, got ${JSON.stringify(v)}`);
        return 2;
      }
      modules[v.slice(0, eq)] = v.slice(eq + 1);
    } else if (a === "--phase" || a.startsWith("--phase=")) {
      const v = value("--phase");
      if (v === undefined) return 2;
      if (!/^[1-9]\d*(,[1-9]\d*)*$/.test(v)) {
        io.err(`relay-conformance repro: --phase takes phase numbers like 1,3, got ${JSON.stringify(v)}`);
        return 2;
      }
      phases = v.split(",").map(Number);
    } else if (a.startsWith("-")) {
      io.err(`relay-conformance repro: unknown flag ${a}\n${HINT}`);
      return 2;
    } else if (target === undefined) target = a;
    else {
      io.err(`relay-conformance repro: one reproduction at a time (got ${target} and ${a})`);
      return 2;
    }
  }
  if (list) {
    if (target !== undefined) {
      io.err("relay-conformance repro: --list takes no reproduction");
      return 2;
    }
    let broken = false;
    for (const r of listShipped()) {
      if (r instanceof ReproParseError) {
        broken = true;
        io.err(r.message);
      } else io.out(`${r.id.padEnd(12)} ${r.title}`);
    }
    return broken ? 2 : 0;
  }
  if (target === undefined) {
    io.err(`relay-conformance repro: name a reproduction (id or file), or --list\n${HINT}`);
    return 2;
  }
  const file = locate(target, cwd);
  if (file === undefined) {
    io.err(`relay-conformance repro: no reproduction "${target}" (see relay-conformance repro --list)`);
    return 2;
  }
  try {
    const repro = parseReproductionFile(file);
    const summary = await runReproduction(repro, {
      ...(against !== undefined ? { against } : {}),
      ...(defects ? { defects } : {}),
      ...(Object.keys(modules).length > 0 ? { modules } : {}),
      ...(phases ? { phases } : {}),
      cwd,
      out: io.out,
    });
    return summary.ok ? 0 : 1;
  } catch (e) {
    if (e instanceof ReproParseError || e instanceof ReproInputError) {
      io.err(e.message);
      return 2;
    }
    throw e;
  }
}
