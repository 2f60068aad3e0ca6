import type { Clause } from "./types.ts";
export const PROPERTY_CLAUSES: readonly Clause[] = [];
