// One scenario, two sides: the script runs against the binary under test, then against the simulator in the same
// profile, each in a fresh world at the same paths, both recorded through the same shims; the two transcripts are
// normalised and compared call by call.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTranscript } from "../../simulator/output/transcript.ts";
import type { Profile } from "../../simulator/scenario/schema.ts";
import { orderByStart } from "../goldens/normalise.ts";
import type { Reproduction } from "../repro/format.ts";
import { SIM_GENTLE_AI } from "../repro/paths.ts";
import { runReproduction } from "../repro/run.ts";
import type { Sandbox } from "../repro/sandbox.ts";
import { comparePhase } from "./compare.ts";
import { normaliseCalls, type NormalCall } from "./normalise.ts";
import { HashPairing } from "./pairing.ts";
import type { ScenarioVerdict } from "./report-schema.ts";

/** Where and against what one differential run works. */
export interface DiffSides {
  readonly binary: string;
  readonly profile: Profile;
  /** The fixed world root both sides use, one after the other. */
  readonly root: string;
  /** With `--keep`: each side's raw transcripts and step log are copied under this folder. */
  readonly keep?: string;
}

/** One side's run of a script: its normalised calls per phase, and what the harness could not do. */
interface SideRun {
  readonly phases: Map<number, NormalCall[]>;
  readonly harnessErrors: readonly string[];
  readonly skipped: number;
  readonly log: string[];
}

async function runSide(
  repro: Reproduction,
  gentleAi: string,
  side: "binary" | "simulator",
  sides: DiffSides,
): Promise<SideRun> {
  const phases = new Map<number, NormalCall[]>();
  const log: string[] = [];
  rmSync(sides.root, { recursive: true, force: true });
  const onPhaseEnd = (index: number, sandbox: Sandbox): void => {
    const paths = {
      root: sandbox.root,
      work: sandbox.work,
      home: sandbox.home,
      tmp: sandbox.tmp,
      state: sandbox.state,
    };
    phases.set(
      index,
      normaliseCalls(
        orderByStart(readTranscript(sandbox.transcript)).map((o) => o.entry),
        paths,
      ),
    );
    if (sides.keep !== undefined) {
      const dir = join(sides.keep, repro.id, side);
      mkdirSync(dir, { recursive: true });
      copyFileSync(sandbox.transcript, join(dir, `phase-${index + 1}.transcript.jsonl`));
    }
  };
  const summary = await runReproduction(repro, {
    binary: gentleAi,
    recording: "shim",
    root: sides.root,
    profile: sides.profile,
    out: (l) => log.push(l),
    onPhaseEnd,
  });
  if (sides.keep !== undefined) writeFileSync(join(sides.keep, repro.id, `${side}.log`), `${log.join("\n")}\n`);
  return { phases, harnessErrors: summary.harnessErrors, skipped: summary.skipped, log };
}

/** Runs one script on both sides and gives its verdict: pass, the first divergence, skip, or a harness error. */
export async function diffScript(repro: Reproduction, sides: DiffSides): Promise<ScenarioVerdict> {
  const base = { script: repro.file, id: repro.id };
  const binary = await runSide(repro, sides.binary, "binary", sides);
  const calls = [...binary.phases.values()].reduce((n, p) => n + p.length, 0);
  if (binary.harnessErrors.length > 0)
    return {
      ...base,
      status: "error",
      calls,
      reason: `the binary's side: ${binary.harnessErrors.join("; ")}`,
      divergences: [],
    };
  if (binary.phases.size === 0)
    return {
      ...base,
      status: "skip",
      calls: 0,
      reason: binary.skipped > 0 ? "every phase needs the simulator" : "no phase ran",
      divergences: [],
    };
  const simulator = await runSide(repro, SIM_GENTLE_AI, "simulator", sides);
  rmSync(sides.root, { recursive: true, force: true });
  const pairing = new HashPairing();
  const divergences = [...binary.phases].flatMap(([index, phaseCalls]) =>
    comparePhase(index + 1, phaseCalls, simulator.phases.get(index) ?? [], pairing),
  );
  return { ...base, status: divergences.length > 0 ? "diverge" : "pass", calls, divergences };
}

/** The fixed world root of a differential run inside its temp folder. */
export function worldRoot(runDir: string): string {
  return join(runDir, "world");
}
