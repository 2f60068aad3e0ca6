// Mutant switching inside the adapter child (conformance/mutate/): StrykerJS's instrumented code reads the active
// mutant and the current test id from `globalThis.__stryker__` at every switch, and records which mutants ran in
// its `mutantCoverage` (`static` while no test id is set, as while the module loads; else `perTest[testId]`).
import type { AdapterJob } from "./protocol.ts";

interface StrykerNamespace {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
}

function namespace(): StrykerNamespace {
  const g = globalThis as { __stryker__?: StrykerNamespace };
  return (g.__stryker__ ??= {});
}

/**
 * Activates the job's mutant (and, but for a load, its test id) before it runs; the returned function ends that and
 * gives the mutants executed, when the job measures coverage (no active mutant).
 */
export function switchMutant(job: AdapterJob): () => { test: string[]; static: string[] } | undefined {
  const spec = job.mutant;
  if (spec === undefined) return () => undefined;
  const ns = namespace();
  if (spec.active === null) delete ns.activeMutant;
  else ns.activeMutant = spec.active;
  if (job.op !== "load") ns.currentTestId = spec.testId;
  return () => {
    delete ns.currentTestId;
    delete ns.activeMutant;
    if (spec.active !== null) return undefined;
    const coverage = ns.mutantCoverage;
    const test = Object.keys(coverage?.perTest[spec.testId] ?? {});
    if (coverage) delete coverage.perTest[spec.testId];
    return { test, static: Object.keys(coverage?.static ?? {}) };
  };
}
