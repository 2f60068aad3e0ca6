// A case whose scenario makes a call last a prescribed time (a delay, a hang that only the relay's own timeout ends,
// a slow drip) spends that time idle, not on a core. The runner gives such cases lanes of their own beside the CPU
// lanes (run-catalogue.ts), and the bench shows their lane time apart (bench/conformance.ts).
import type { Profile } from "../../simulator/scenario/schema.ts";
import type { CaseContext, CaseDef } from "../clauses/types.ts";

/** Fault kinds that hold a call open for a prescribed time. */
const WAIT_FAULT_KINDS: ReadonlySet<string> = new Set(["delay", "hang", "partial-then-hang", "slow-drip"]);

/**
 * Placeholder paths for reading a case's scenario before its sandbox exists: scenarios are data, built from the
 * profile.
 */
function planningContext(profile: Profile): CaseContext {
  const dir = "/nonexistent/relay-conformance-plan";
  return {
    profile,
    sandbox: {
      dir,
      repo: `${dir}/repo`,
      tmp: `${dir}/tmp`,
      elsewhere: `${dir}/elsewhere`,
      state: `${dir}/state`,
      home: `${dir}/home`,
      scenarioFile: `${dir}/scenario.json`,
      transcript: `${dir}/transcript.jsonl`,
      statusTranscript: `${dir}/status-transcript.jsonl`,
      leftovers: () => [],
      remove: () => undefined,
    },
    gentleAi: `${dir}/gentle-ai`,
    pi: `${dir}/pi`,
    relayCwd: `${dir}/elsewhere`,
    env: {},
  };
}

/** Whether the case's scenario on this profile prescribes a wait (a scenario that cannot be read early: no). */
export function prescribesWait(def: CaseDef, profile: Profile): boolean {
  if (def.scenario === undefined) return false;
  try {
    return (def.scenario(planningContext(profile)).faults ?? []).some((rule) => WAIT_FAULT_KINDS.has(rule.fault.kind));
  } catch {
    return false;
  }
}

/**
 * Wait lanes beside `concurrency` CPU lanes for a run with `waiting` such cases: twice as many as the CPU lanes, so
 * the waits overlap each other and the CPU work instead of queueing behind it; none when the run has no more waiting
 * cases than that, since each wait lane costs a host child of its own (a start and a relay load) and a few waits
 * fit on the CPU lanes for less.
 */
export function waitLaneCount(concurrency: number, waiting: number): number {
  return waiting > 2 * concurrency ? 2 * concurrency : 0;
}
