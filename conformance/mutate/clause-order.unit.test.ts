// The order a mutant's covering clauses run in: kills near the mutant first, then kills per second.
import { describe, expect, it } from "vitest";
import type { Clause } from "../clauses/types.ts";
import { ClauseOrder } from "./clause-order.ts";
import type { MutantSpec } from "./instrument.ts";

const clause = (id: string): Clause => ({ id }) as Clause;
const mutant = (file: string, line: number): MutantSpec => ({
  id: `${file}:${line}`,
  file,
  mutatorName: "BooleanLiteral",
  replacement: "false",
  start: { line, column: 1 },
  end: { line, column: 5 },
});
const [A, B, C] = [clause("A"), clause("B"), clause("C")];

describe("ClauseOrder", () => {
  it("with nothing learnt, runs the cheapest clause first", () => {
    const cost = new Map([
      ["A", 300],
      ["B", 100],
      ["C", 200],
    ]);
    expect(new ClauseOrder().next([A, B, C], mutant("x.ts", 1), (c) => cost.get(c.id) ?? 0)).toBe(B);
  });

  it("puts the clause that killed a neighbour in the same file first, the nearer the stronger", () => {
    const order = new ClauseOrder();
    order.learn("A", mutant("x.ts", 40), true);
    order.learn("C", mutant("x.ts", 11), true);
    order.learn("B", mutant("y.ts", 10), true);
    expect(order.next([A, B, C], mutant("x.ts", 10), () => 1)).toBe(C);
    expect(order.next([A, B], mutant("x.ts", 10), () => 1)).toBe(A);
  });

  it("elsewhere, prefers the higher share of kills per second", () => {
    const order = new ClauseOrder();
    for (let i = 0; i < 5; i += 1) order.learn("A", mutant("y.ts", i), false);
    order.learn("B", mutant("y.ts", 1), true);
    expect(order.next([A, B], mutant("x.ts", 1), () => 1)).toBe(B);
    // B's kill rate (2/6) beats A's (1/10), but not at four times A's cost.
    expect(order.next([A, B], mutant("x.ts", 1), (c) => (c.id === "B" ? 4 : 1))).toBe(A);
  });
});
