// The clause catalogue, in report order. Add a clause: write it in the file of its area (or a new file) and list it
// here.
import { API_SLOT_CLAUSES } from "./api-slots.ts";
import { API_CLAUSES } from "./api.ts";
import { BINDING_CLAUSES } from "./binding.ts";
import { CLEANUP_CLAUSES } from "./cleanup.ts";
import { MATERIALIZE_CLAUSES } from "./materialize.ts";
import { PI_CLAUSES } from "./pi.ts";
import { PROPERTY_CLAUSES } from "./properties.ts";
import { SUBMIT_CLAUSES } from "./submit.ts";
import type { Clause } from "./types.ts";

export const CATALOGUE: readonly Clause[] = [
  ...BINDING_CLAUSES,
  ...MATERIALIZE_CLAUSES,
  ...PI_CLAUSES,
  ...SUBMIT_CLAUSES,
  ...CLEANUP_CLAUSES,
  ...PROPERTY_CLAUSES,
  ...API_CLAUSES,
  ...API_SLOT_CLAUSES,
];

/** Clauses whose ID matches the pattern (case-insensitive regex; plain text works too). */
export function selectClauses(pattern: string | undefined, clauses: readonly Clause[] = CATALOGUE): Clause[] {
  if (pattern === undefined) return [...clauses];
  const re = new RegExp(pattern, "i");
  return clauses.filter((c) => re.test(c.id));
}
