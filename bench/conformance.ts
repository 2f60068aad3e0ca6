// Bench section "conformance": one default `relay-conformance run` (all clauses, all profiles, default property
// runs, concurrency 2, seed 1) against our relay. Reports its wall time (target: under 60 s), its floor and where
// the rest goes. The floor is what the relay under test must start itself: its simulated calls (the transcripts'
// entries), each at least one Node start (`node -e 0`, measured here), spread over the lanes. Wall ÷ floor has no
// target (the 1.2x one is retired): everything above the floor is harness overhead or the simulator's own work per
// call, and the rows below it say where that goes.
import { CATALOGUE } from "../conformance/clauses/index.ts";
import { DEFAULT_RUNS, DEFAULT_TIMEOUT_MS } from "../conformance/clauses/catalogue-options.ts";
import { harnessPaths } from "../conformance/paths.ts";
import { runCatalogue } from "../conformance/runner/run-catalogue.ts";
import { waitLaneCount } from "../conformance/runner/prescribed-waits.ts";
import type { HarnessStep, RunObserver } from "../conformance/runner/run-observer.ts";
import { PROFILES } from "../simulator/scenario/schema.ts";
import { measureAlternating, median } from "./measure.ts";
import { registerBenchSection, type BenchRow } from "./registry.ts";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const TARGET_MS = 60_000;
const CONCURRENCY = 2;
const NODE_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

/** Figures of one default run. */
export interface ConformanceBenchFigures {
  readonly wallMs: number;
  readonly cases: number;
  readonly casesPerSecond: number;
  readonly clauses: number;
  readonly failed: number;
  /** Median wall time of `node -e 0`. */
  readonly nodeStartMs: number;
  readonly relayCalls: number;
  /** Relay calls of the cases run on the wait lanes (their scenarios prescribe a wait: delay, hang, drip faults). */
  readonly waitingCalls: number;
  /**
   * Time the relay's other simulated calls spent inside their processes after Node's start (transcript timings; a call
   * that runs another counts it too).
   */
  readonly simulatedMs: number;
  /** The harness's own simulated calls: STATUS spawned and in-process, and host-side steps (all spawned). */
  readonly statusSpawns: number;
  readonly statusInProcess: number;
  readonly hostSpawns: number;
  /** Lane-milliseconds per harness step (summed over lanes), and how often each happened. */
  readonly steps: Readonly<Record<HarnessStep, { readonly ms: number; readonly count: number }>>;
  /** Lane-milliseconds of property tasks outside their generated cases (generation, shrinking, the check itself). */
  readonly propertyOwnMs: number;
  /** Serial phases: the module probe on lane 0 (its child's start included) and closing the lanes. */
  readonly probeMs: number;
  /** The other lanes' first child starts, run alongside the probe: the longest, so its part past the probe is known. */
  readonly warmMs: number;
  readonly closeMs: number;
  /** Lane-milliseconds of case tasks outside the timed steps (clause bookkeeping, awaiting). */
  readonly caseOtherMs: number;
  /** Cases run on the wait lanes beside the CPU lanes, and their lane-milliseconds (tasks, child starts included). */
  readonly waitLaneCases: number;
  readonly waitLaneMs: number;
}

const STEPS: readonly HarnessStep[] = ["sandbox", "status", "before", "worker-start", "relay", "evidence"];

/** An observer that sums what the run reports; the steps and tasks of the CPU lanes only (wait lanes apart). */
function collector(): {
  observer: RunObserver;
  totals: Omit<ConformanceBenchFigures, "wallMs" | "cases" | "casesPerSecond" | "clauses" | "failed" | "nodeStartMs">;
} {
  const steps = Object.fromEntries(STEPS.map((s) => [s, { ms: 0, count: 0 }])) as Record<
    HarnessStep,
    { ms: number; count: number }
  >;
  const totals = {
    relayCalls: 0,
    waitingCalls: 0,
    simulatedMs: 0,
    statusSpawns: 0,
    statusInProcess: 0,
    hostSpawns: 0,
    steps,
    propertyOwnMs: 0,
    probeMs: 0,
    warmMs: 0,
    closeMs: 0,
    caseOtherMs: 0,
    waitLaneCases: 0,
    waitLaneMs: 0,
  };
  const onWaitLane = (lane: number | undefined): boolean => lane !== undefined && lane >= CONCURRENCY;
  let probing = true;
  // Case steps inside the current task, per kind: what a task spent outside them is its own cost.
  let caseStepMs = 0;
  let propertyTaskMs = 0;
  let caseTaskMs = 0;
  const observer: RunObserver = {
    step: (step, ms, lane) => {
      // The probe's child start belongs to the probe phase, which is timed as a whole.
      if (probing) return;
      if (onWaitLane(lane)) {
        // A wait lane's child start is not inside a task: count it with the lane's tasks.
        if (step === "worker-start") totals.waitLaneMs += ms;
        return;
      }
      steps[step].ms += ms;
      steps[step].count += 1;
      caseStepMs += ms;
    },
    caseProcesses: (c) => {
      const calls = c.relayTranscript.length;
      totals.relayCalls += calls;
      if (onWaitLane(c.lane)) {
        totals.waitingCalls += calls;
      } else totals.simulatedMs += c.relayTranscript.reduce((sum, e) => sum + e.timing.durationMs, 0);
      for (const e of c.harnessTranscript) {
        if (e.verb !== "status") totals.hostSpawns += e.pid === process.pid ? 0 : 1;
        else if (e.pid === process.pid) totals.statusInProcess += 1;
        else totals.statusSpawns += 1;
      }
    },
    task: (kind, ms, lane) => {
      if (onWaitLane(lane)) {
        totals.waitLaneCases += 1;
        totals.waitLaneMs += ms;
      } else if (kind === "property") propertyTaskMs += ms;
      else caseTaskMs += ms;
    },
    phase: (phase, ms) => {
      if (phase === "probe") {
        probing = false;
        totals.probeMs = ms;
      } else if (phase === "warm") totals.warmMs = Math.max(totals.warmMs, ms);
      else totals.closeMs = ms;
    },
  };
  return {
    observer,
    get totals() {
      // Tasks run their cases' steps; property and catalogue tasks share one step sum, split by task time.
      const taskMs = propertyTaskMs + caseTaskMs;
      const outside = taskMs - caseStepMs;
      const propertyShare = taskMs === 0 ? 0 : propertyTaskMs / taskMs;
      return {
        ...totals,
        propertyOwnMs: Math.max(0, outside * propertyShare),
        caseOtherMs: Math.max(0, outside * (1 - propertyShare)),
      };
    },
  };
}

// The environment the relay's calls start in: the adapter child replaces its whole environment with the case's
// (run-case.ts simEnvironment), so none of this process's variables reach them. Measured in this process's own
// environment instead, a Node start would price in what the calls never pay: NODE_EXTRA_CA_CERTS, set on this machine
// and in CI, makes `node -e 0` three times dearer (about 110 ms against 35 ms) and the floor with it.
const CALL_ENV = { PATH: dirname(process.execPath), LANG: "C.UTF-8" };

/** Median of `node -e 0` in the calls' environment: the cost of the cheapest process a relay can start. */
function measureNodeStart(): number {
  const times = measureAlternating(
    [{ label: "node -e 0", command: process.execPath, args: ["-e", "0"], env: CALL_ENV }],
    NODE_ROUNDS,
  );
  return median(times.get("node -e 0") ?? [0]);
}

/** Runs the default catalogue once and measures it, with its floor and the breakdown of the rest. */
export async function measureConformance(): Promise<ConformanceBenchFigures> {
  const before = measureNodeStart();
  const collected = collector();
  const started = performance.now();
  const report = await runCatalogue({
    relayModule: harnessPaths().defaultRelay,
    clauses: CATALOGUE,
    profiles: [...PROFILES],
    runs: DEFAULT_RUNS,
    seed: 1,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    concurrency: CONCURRENCY,
    counterexampleDir: join(tmpdir(), "relay-conformance-bench-counterexamples"),
    observer: collected.observer,
  });
  const wallMs = performance.now() - started;
  // Node's start measured on both sides of the run, so a machine that got busier or quieter in between averages out.
  const nodeStartMs = (before + measureNodeStart()) / 2;
  return {
    wallMs,
    cases: report.cases,
    casesPerSecond: report.cases / (wallMs / 1000),
    clauses: report.clauses.length,
    failed: report.summary.failed,
    nodeStartMs,
    ...collected.totals,
  };
}

/** The figures as bench rows: wall-clock milliseconds, lane sums divided by the lane count. */
export function conformanceRows(f: ConformanceBenchFigures): BenchRow[] {
  const floorMs = (f.relayCalls * f.nodeStartMs) / CONCURRENCY;
  const wall = (laneMs: number): number => laneMs / CONCURRENCY;
  const s = f.steps;
  const busy = STEPS.reduce((sum, step) => sum + s[step].ms, 0) + f.propertyOwnMs + f.caseOtherMs;
  // Lanes but 0 start their children alongside the probe; a start that outlasts it holds those lanes back.
  const pastProbeMs = Math.max(0, f.warmMs - f.probeMs);
  const idleMs = f.wallMs - f.probeMs - f.closeMs - wall(busy) - ((CONCURRENCY - 1) * pastProbeMs) / CONCURRENCY;
  const cpuCalls = f.relayCalls - f.waitingCalls;
  const cpuFloorMs = (cpuCalls * f.nodeStartMs) / CONCURRENCY;
  const pct = (ms: number): string => `${((100 * ms) / f.wallMs).toFixed(0)}%`;
  const part = (label: string, ms: number): BenchRow => ({ label: `  ${label} (${pct(ms)} of wall)`, medianMs: ms });
  return [
    {
      label: `default run wall time (${f.clauses} clauses, ${f.cases} cases, ${f.failed} failed; target < ${TARGET_MS / 1000} s)`,
      medianMs: f.wallMs,
      ratio: f.wallMs / TARGET_MS,
      target: 1,
    },
    { label: `per case (${f.casesPerSecond.toFixed(2)} cases/s)`, medianMs: f.wallMs / f.cases },
    { label: `node -e 0 (median of ${NODE_ROUNDS}, before and after the run)`, medianMs: f.nodeStartMs },
    { label: `floor: ${f.relayCalls} relay-initiated calls × node -e 0 ÷ ${CONCURRENCY} lanes`, medianMs: floorMs },
    { label: "wall ÷ floor", medianMs: f.wallMs, ratio: f.wallMs / floorMs },
    { label: `where the wall time goes (CPU lane time ÷ ${CONCURRENCY} lanes):`, medianMs: f.wallMs },
    part(`relay calls of the cases on the CPU lanes: their floor (${cpuCalls} calls)`, cpuFloorMs),
    part(
      `relay jobs of those calls above their floor (simulator work per call: ${(f.simulatedMs / Math.max(1, cpuCalls)).toFixed(1)} ms on average after Node's start; the relay itself; adapter IPC)`,
      wall(s.relay.ms) - cpuFloorMs,
    ),
    part(
      `STATUS acquisition (${f.statusSpawns} spawned, ${f.statusInProcess} in-process; the other cases share an answer)`,
      wall(s.status.ms),
    ),
    part(`case folders and scenario files (${s.sandbox.count / 2} cases)`, wall(s.sandbox.ms)),
    part(
      `host-side steps before the relay (${s.before.count} cases; ${f.hostSpawns} host calls spawned, during the relay's run too)`,
      wall(s.before.ms),
    ),
    part(`adapter child start-ups and replacements (${s["worker-start"].count})`, wall(s["worker-start"].ms)),
    part("evidence and case clean-up", wall(s.evidence.ms)),
    part("property generation and checks", wall(f.propertyOwnMs)),
    part("other per-case bookkeeping", wall(f.caseOtherMs)),
    part("module probe on lane 0 (serial, a child start included)", f.probeMs),
    part(
      `other lanes' first child start past the probe (${f.warmMs.toFixed(0)} ms, alongside it)`,
      ((CONCURRENCY - 1) * pastProbeMs) / CONCURRENCY,
    ),
    part("closing the lanes (serial)", f.closeMs),
    part("idle CPU lanes (queue tail, lane imbalance)", idleMs),
    {
      label: `alongside, not in the sum: ${f.waitLaneCases} cases with prescribed waits (delay, hang, drip faults; the relay's timeouts) on ${waitLaneCount(CONCURRENCY, f.waitLaneCases)} wait lanes, lane time ÷ lanes (their ${f.waitingCalls} calls are in the floor)`,
      medianMs: f.waitLaneMs / waitLaneCount(CONCURRENCY, f.waitLaneCases),
    },
  ];
}

registerBenchSection({ name: "conformance", run: async () => conformanceRows(await measureConformance()) });

/** Bench entry: prints the default run's figures. */
export async function benchConformance(): Promise<void> {
  const f = await measureConformance();
  process.stdout.write("\n## conformance\n\n| measurement | ms | ratio | target | ok |\n|---|---:|---:|---:|---|\n");
  for (const row of conformanceRows(f)) {
    const ratio = row.ratio === undefined ? "" : `${row.ratio.toFixed(2)}x`;
    const target = row.target === undefined ? "" : `<= ${row.target}x`;
    const ok = row.ratio === undefined || row.target === undefined ? "" : row.ratio <= row.target ? "yes" : "NO";
    process.stdout.write(`| ${row.label} | ${row.medianMs.toFixed(1)} | ${ratio} | ${target} | ${ok} |\n`);
  }
}

if (process.argv[1]?.endsWith("bench/conformance.ts")) await benchConformance();
