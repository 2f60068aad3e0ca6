// Mutant switching inside the adapter child (conformance/mutate/): StrykerJS's instrumented code reads the active
// mutant and the current test id from `globalThis.__stryker__` at every switch, and records which mutants ran in
// its `mutantCoverage` (`static` while no test id is set, as while the module loads; else `perTest[testId]`).
import type { AdapterJob } from "./protocol.ts";

interface StrykerNamespace {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
}

/** What a coverage job executed: under its own test id, while loading, and late (see switchMutant). */
export interface SwitchCoverage {
  readonly test: string[];
  readonly static: string[];
  readonly late?: { readonly testId: string; readonly ids: string[] };
}

function namespace(): StrykerNamespace {
  const g = globalThis as { __stryker__?: StrykerNamespace };
  return (g.__stryker__ ??= {});
}

/** The mutants run under the previous job's test id since its reply, taken out of the coverage. */
function takeLate(ns: StrykerNamespace): SwitchCoverage["late"] {
  const testId = ns.currentTestId;
  const perTest = ns.mutantCoverage?.perTest;
  if (testId === undefined || perTest === undefined) return undefined;
  const ids = Object.keys(perTest[testId] ?? {});
  delete perTest[testId];
  return ids.length > 0 ? { testId, ids } : undefined;
}

/**
 * Activates the job's mutant (and, but for a load, its test id) before it runs; the returned function gives the
 * mutants executed, when the job measures coverage (no active mutant). Both stay set until the next job: code the
 * job's children trigger after its reply (a child's `close`) runs under the job's mutant and counts for its test,
 * reported by the next job as `late`, not as load-time (static) coverage.
 */
export function switchMutant(job: AdapterJob): () => SwitchCoverage | undefined {
  const spec = job.mutant;
  if (spec === undefined) return () => undefined;
  const ns = namespace();
  const late = spec.active === null ? takeLate(ns) : undefined;
  if (spec.active === null) delete ns.activeMutant;
  else ns.activeMutant = spec.active;
  if (job.op === "load") delete ns.currentTestId;
  else ns.currentTestId = spec.testId;
  return () => {
    if (spec.active !== null) return undefined;
    const coverage = ns.mutantCoverage;
    const test = Object.keys(coverage?.perTest[spec.testId] ?? {});
    if (coverage) delete coverage.perTest[spec.testId];
    return { test, static: Object.keys(coverage?.static ?? {}), ...(late === undefined ? {} : { late }) };
  };
}
