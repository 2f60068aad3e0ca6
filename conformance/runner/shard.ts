// `run --shard i/n`: a deterministic split of the selected clauses over n CI jobs. The unit is the clause, with all
// its profiles and checks, so a shard decides each of its clauses exactly as the unsharded run does (same cases,
// same property runs under the same seed); merge-reports puts the shards back together.
import { createHash } from "node:crypto";
import type { Profile } from "../../simulator/scenario/schema.ts";
import type { Clause } from "../clauses/types.ts";

/** Which part of a sharded run this is: 1-based index of count. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Parses `i/n` (1 ≤ i ≤ n); undefined for a malformed value. */
export function parseShard(value: string): Shard | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return Number.isSafeInteger(count) && count >= 1 && index >= 1 && index <= count ? { index, count } : undefined;
}

/** The relay calls a clause costs on the selected profiles: one per case check, `runs` per property check. */
function cost(clause: Clause, profiles: readonly Profile[], runs: number): number {
  const applicable = profiles.filter((p) => clause.profiles.includes(p)).length;
  const perProfile = clause.checks.reduce(
    (sum, check) => sum + ("case" in check ? 1 : "property" in check ? Math.max(runs, 1) : 0),
    0,
  );
  return applicable * perProfile;
}

/**
 * The clauses of `shard`, in selection order: the costliest clause goes first to the least-loaded shard (ties to the
 * lower shard, then selection order), so the split depends only on the selection, the profiles and `runs`.
 */
export function shardClauses(
  clauses: readonly Clause[],
  profiles: readonly Profile[],
  runs: number,
  shard: Shard,
): Clause[] {
  const order = clauses
    .map((clause, i) => ({ i, cost: cost(clause, profiles, runs) }))
    .sort((a, b) => b.cost - a.cost || a.i - b.i);
  const load = new Array<number>(shard.count).fill(0);
  const owner = new Array<number>(clauses.length);
  for (const { i, cost: c } of order) {
    let best = 0;
    for (let s = 1; s < shard.count; s++) if (load[s]! < load[best]!) best = s;
    owner[i] = best;
    load[best]! += c;
  }
  return clauses.filter((_, i) => owner[i] === shard.index - 1);
}

/**
 * A digest of the catalogue's clauses (IDs, statements, sources, profiles): shards of different catalogues never merge.
 */
export function catalogueDigest(clauses: readonly Clause[]): string {
  const hash = createHash("sha256");
  for (const c of clauses)
    hash.update(`${JSON.stringify([c.id, c.statement, c.source, c.profiles, c.checks.length])}\n`);
  return `sha256:${hash.digest("hex").slice(0, 16)}`;
}
