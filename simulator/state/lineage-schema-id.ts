// The persisted lineage's format id, apart from both the zod schema (lineage-state.ts) and the zod-free initial
// lineage (lineage-initial.ts), so neither needs the other at run time.
export const LINEAGE_STATE_SCHEMA = "gentle-ai-sim.lineage-state/v1";
