// Bench sections register here; bench/run.ts imports each section file once (one import line per section).

/** One printed figure: a median wall time, optionally as a ratio against a baseline with its target. */
export interface BenchRow {
  readonly label: string;
  readonly medianMs: number;
  /** Median of the per-round ratios against the section's baseline. */
  readonly ratio?: number;
  /** Fastest run against the baseline's fastest: the intrinsic cost, least disturbed by a busy machine. */
  readonly minRatio?: number;
  /** Upper bound for ratio (e.g. 1.5). */
  readonly target?: number;
}

/** A named group of measurements. */
export interface BenchSection {
  readonly name: string;
  run(): Promise<readonly BenchRow[]> | readonly BenchRow[];
}

const sections: BenchSection[] = [];

/** Adds a section; called at import time by bench/<section>.ts. */
export function registerBenchSection(section: BenchSection): void {
  sections.push(section);
}

/** Sections in import order. */
export function benchSections(): readonly BenchSection[] {
  return sections;
}
