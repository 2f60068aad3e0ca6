// Decides a hung relay call as soon as it provably cannot settle before its bound, and says where it hung.
// Every POLL_MS the relay host answers a census (process/adapter-child.ts): the relay's timers, the handles its job
// added, and what each process of the call is blocked in. The call is stuck when
// - every process of the call can only move when the relay acts: blocked reading a stdin the relay holds open,
//   blocked writing a stdout or stderr the relay does not read, or hanging as its scenario prescribes (its transcript
//   line says so); and
// - nothing can wake the relay before the bound could end the call: no timer due before MAX_STRETCH × the bound
//   (the latest a load-scaled bound can fire), no timer the census cannot see, and no handle or request but those
//   of its stuck processes (no pending file system call, socket, watcher or immediate).
// Stuck in three censuses in a row with the same processes, counters and handles, the call is decided as the bound
// would decide it, a timeout, at once. A host that does not answer (its thread blocked or busy) is never decided
// early: the bound ends it, and its timeout says so.
import type { HangEvidence, HangWatch } from "../process/job-outcome.ts";
import type { Census } from "../process/relay-host.ts";
import { MAX_STRETCH } from "../process/load-clock.ts";
import type { ProcessSnapshot } from "../process/process-census.ts";
import { readTranscript, type TranscriptEntry } from "../clauses/transcript.ts";

/** The first census, and the pause between censuses. */
const FIRST_MS = 100;
const POLL_MS = 150;
/** Stuck censuses in a row, nothing changed between them, that decide (a loaded machine delays what is on its way). */
const STUCK_CENSUSES = 3;
/** Handles and requests that cannot wake a relay whose processes are stuck (their events need those processes). */
const INERT = new Set(["ProcessWrap", "PipeWrap", "TTYWrap", "WriteWrap", "ShutdownWrap", "FileHandle", "SignalWrap"]);

type Leg = "materialize" | "pi" | "submit";

/** The simulator program and leg of a process, from its argv (null: a process the relay started itself). */
function programOf(argv: readonly string[]): { program: "gentle-ai" | "pi"; leg: Leg } | null {
  if (argv.some((a) => /(^|\/)pi(\.cjs)?$/.test(a))) return { program: "pi", leg: "pi" };
  if (argv.some((a) => /(^|\/)gentle-ai(\.cjs)?$/.test(a)))
    return { program: "gentle-ai", leg: argv.includes("--materialize=true") ? "materialize" : "submit" };
  return null;
}

/** Why a process cannot move until the relay acts, or null when it might. */
function stuckReason(p: ProcessSnapshot, transcript: readonly TranscriptEntry[]): string | null {
  const b = p.blockedIn;
  if (b?.call === "read" && b.fd === 0)
    return "blocked reading its stdin, which is still open: the relay neither wrote more nor closed it";
  if (b?.call === "write" && (b.fd === 1 || b.fd === 2))
    return `blocked writing its ${b.fd === 1 ? "stdout" : "stderr"}, which the relay does not read`;
  if (b?.call === "futex" && transcript.some((e) => e.pid === p.pid && !e.exit.completed))
    return "hanging as its scenario prescribes: only the relay can end it";
  return null;
}

function describe(p: ProcessSnapshot, reason: string | null): string {
  const sim = programOf(p.argv);
  const who = sim === null ? "a process the relay started" : `${sim.program}, the ${sim.leg} leg,`;
  const doing =
    reason ??
    (p.blockedIn === null
      ? `in state ${p.state || "?"}`
      : `blocked in ${p.blockedIn.call}${p.blockedIn.fd === null ? "" : ` on fd ${p.blockedIn.fd}`}`);
  const argv = JSON.stringify(p.argv.slice(1)).slice(0, 240);
  return `${who} pid ${p.pid}, ${doing}; read ${p.readBytes ?? "?"} B and wrote ${p.writtenBytes ?? "?"} B so far; argv ${argv}`;
}

function transcriptOf(path: string): TranscriptEntry[] {
  try {
    return readTranscript(path);
  } catch {
    return []; // a line being written
  }
}

/** What can wake the relay before the latest moment its bound can end the call. */
function wakers(c: Census, msLeft: number): string[] {
  const found = c.resources.filter((r) => !INERT.has(r));
  // A child handle or stdio pipe is inert only while a live process holds its other end: one more than those is an
  // exit or an end of file on its way (a child already gone, even if not yet reaped).
  const count = (name: string): number => c.resources.filter((r) => r === name).length;
  if (count("ProcessWrap") > c.processes.length) found.push("the exit of a child that has ended, not yet delivered");
  if (count("PipeWrap") > 3 * c.processes.length) found.push("the end of a pipe whose writer has ended, not yet read");
  if (c.untrackedTimers > 0)
    found.push(`${c.untrackedTimers} timer(s) armed where the census cannot see their due time`);
  if (c.nextTimerMs !== null && c.nextTimerMs < msLeft)
    found.push(`a timer due in ${(c.nextTimerMs / 1000).toFixed(1)} s`);
  return found;
}

/** The evidence of one census, whether the call is stuck, and a signature two stuck censuses must share. */
export function judge(
  c: Census,
  transcript: readonly TranscriptEntry[],
  msLeft: number,
): { evidence: HangEvidence; stuck: boolean; readonly signature: string } {
  const reasons = c.processes.map((p) => stuckReason(p, transcript));
  const wake = wakers(c, msLeft);
  const stuck = reasons.every((r) => r !== null) && wake.length === 0;
  const simIndex = c.processes.findIndex((p) => programOf(p.argv) !== null);
  const sim = simIndex === -1 ? undefined : c.processes[simIndex];
  const last = transcript.at(-1);
  const lastLeg = last === undefined ? undefined : last.program === "pi" ? "pi" : (last.leg ?? "gentle-ai");
  const leg = sim !== undefined ? (programOf(sim.argv)?.leg ?? "?") : (lastLeg ?? "none");
  const relayWaits =
    wake.length === 0
      ? "nothing that can happen before its bound (no timer due, no handle that can answer)"
      : wake.join(", ");
  const waitingFor =
    sim !== undefined
      ? `${programOf(sim.argv)?.program ?? "?"} is ${reasons[simIndex] ?? "still running"}; the relay waits on ${relayWaits}`
      : last === undefined
        ? `nothing was launched; the relay waits on ${relayWaits}`
        : `its process exited ${last.exit.code ?? last.exit.signal ?? "?"}, yet the relay never went on; it waits on ${relayWaits}`;
  const processes = c.processes.map((p, i) => describe(p, reasons[i] ?? null));
  const signature = JSON.stringify([
    c.processes.map((p) => [p.pid, p.blockedIn, p.readBytes, p.writtenBytes]),
    c.resources,
    c.untrackedTimers,
  ]);
  return { evidence: { leg, waitingFor, processes, early: false }, stuck, signature };
}

/**
 * A hang watch for one relay call whose simulated processes write `transcriptPath`; `harnessActing` says when a
 * harness action of the case (runner/run-case.ts `during`) may be about to move the call (then nothing is decided).
 */
export function hangWatch(transcriptPath: string, harnessActing: () => boolean = () => false): HangWatch {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let last: HangEvidence | undefined;
  let previous: string | null = null;
  let streak = 0;
  return {
    begin(host, boundMs, hung) {
      const startedAt = performance.now();
      const tick = async (): Promise<void> => {
        const c = await host.census();
        if (stopped) return;
        if (c === null || c.job === null) {
          previous = null;
          streak = 0;
          last ??= {
            leg: "unknown",
            waitingFor: "the relay host did not answer the census (its thread is blocked or busy)",
            processes: [],
            early: false,
          };
        } else {
          const msLeft = startedAt + MAX_STRETCH * boundMs - performance.now();
          const seen = judge(c, transcriptOf(transcriptPath), msLeft);
          last = seen.evidence;
          if (seen.stuck && harnessActing()) seen.stuck = false;
          streak = seen.stuck && seen.signature === previous ? streak + 1 : seen.stuck ? 1 : 0;
          if (streak >= STUCK_CENSUSES) {
            stopped = true;
            last = { ...seen.evidence, early: true };
            hung();
            return;
          }
          previous = seen.stuck ? seen.signature : null;
        }
        timer = setTimeout(() => void tick(), POLL_MS);
        timer.unref();
      };
      timer = setTimeout(() => void tick(), FIRST_MS);
      timer.unref();
    },
    end() {
      stopped = true;
      clearTimeout(timer);
    },
    evidence: () => last,
  };
}
