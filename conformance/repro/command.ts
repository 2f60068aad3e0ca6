import { listShipped, locate } from "./catalogue.ts";
import { parseDefects, type DefectId } from "./client-contract.ts";
import { ReproInputError } from "./modules.ts";
import { parseReproductionFile, ReproParseError } from "./parse.ts";
import { runReproduction } from "./run.ts";

export const REPRO_USAGE = `Usage: relay-conformance repro <id|file> [--against <module>] [--defects D1,D2,D3|none]
       relay-conformance repro --list

Runs an issue reproduction step by step against the simulator and prints each command, the provider's
answer and expected vs actual. Exit 0: behaves as documented; 1: a mismatch; 2: bad input.
  --against <module>  run the subject steps against another relay or client module (a .ts/.mjs path,
                      or a named module: ours, gentle-pi-2.1.2)
  --defects <list>    defects the subject client keeps (read by the defective variant)
  --list              list the shipped reproductions with their titles`;

/** Output sinks of the command. */
export interface CommandIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** `relay-conformance repro …`: returns the exit code (0 documented, 1 mismatch, 2 bad input). */
export async function reproCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let target: string | undefined;
  let against: string | undefined;
  let defects: DefectId[] | undefined;
  let list = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = (flag: string): string | undefined => {
      if (a.startsWith(`${flag}=`)) return a.slice(flag.length + 1);
      const v = argv[++i];
      if (v === undefined) io.err(`relay-conformance repro: ${flag} needs a value`);
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
    } else if (a.startsWith("-")) {
      io.err(`relay-conformance repro: unknown flag ${a}\n${REPRO_USAGE}`);
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
    io.err(`relay-conformance repro: name a reproduction (id or file), or --list\n${REPRO_USAGE}`);
    return 2;
  }
  const file = locate(target);
  if (file === undefined) {
    io.err(`relay-conformance repro: no reproduction "${target}" (see relay-conformance repro --list)`);
    return 2;
  }
  try {
    const repro = parseReproductionFile(file);
    const summary = await runReproduction(repro, { ...(against !== undefined ? { against } : {}), ...(defects ? { defects } : {}), out: io.out });
    return summary.ok ? 0 : 1;
  } catch (e) {
    if (e instanceof ReproParseError || e instanceof ReproInputError) {
      io.err(e.message);
      return 2;
    }
    throw e;
  }
}
