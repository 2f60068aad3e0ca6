// Which covering clause a mutant runs next. A mutant stops at its first killing clause, so the order decides how much
// of a killed mutant's time is spent on clauses that pass; a survivor runs them all whatever the order. The order is
// decided afresh before each clause, from what the mutants tested so far taught: mutants in flight together learn
// from each other's kills.
import type { Clause } from "../clauses/types.ts";
import type { MutantSpec } from "./instrument.ts";

/** A clause's record so far: the mutants it decided and those it killed, overall and per file (by line). */
interface ClauseRecord {
  tried: number;
  killed: number;
  readonly killedLines: Map<string, number[]>;
}

/** Kills per second a clause has earned so far, and where it killed. */
export class ClauseOrder {
  readonly #records = new Map<string, ClauseRecord>();

  #record(clause: string): ClauseRecord {
    let record = this.#records.get(clause);
    if (record === undefined) {
      record = { tried: 0, killed: 0, killedLines: new Map() };
      this.#records.set(clause, record);
    }
    return record;
  }

  /** The clause decided a mutant: killed it or let it pass. */
  learn(clause: string, mutant: MutantSpec, killed: boolean): void {
    const record = this.#record(clause);
    record.tried += 1;
    if (!killed) return;
    record.killed += 1;
    record.killedLines.set(mutant.file, [...(record.killedLines.get(mutant.file) ?? []), mutant.start.line]);
  }

  /**
   * The next clause: first those that killed mutants of the same file (the nearer the line, the more it weighs:
   * neighbouring mutants tend to fall to the same clause), then the best chance of a kill per second, its share of
   * kills so far, (k + 1) / (n + 5), over what its cases that execute this mutant cost in the coverage run.
   */
  next(candidates: readonly Clause[], mutant: MutantSpec, costMs: (clause: Clause) => number): Clause | undefined {
    let best: Clause | undefined;
    let bestKey: readonly [number, number] = [-1, -1];
    for (const clause of candidates) {
      const key = [this.#nearness(clause.id, mutant), this.#rate(clause.id) / Math.max(costMs(clause), 1)] as const;
      if (key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1])) {
        best = clause;
        bestKey = key;
      }
    }
    return best;
  }

  #rate(clause: string): number {
    const record = this.#records.get(clause);
    return ((record?.killed ?? 0) + 1) / ((record?.tried ?? 0) + 5);
  }

  #nearness(clause: string, mutant: MutantSpec): number {
    const lines = this.#records.get(clause)?.killedLines.get(mutant.file) ?? [];
    return lines.reduce((sum, line) => sum + 1 / (1 + Math.abs(line - mutant.start.line)), 0);
  }
}
