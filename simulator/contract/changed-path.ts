// One changed_path_manifest entry (ChangedPathManifestEntry, reviewtransaction/frozen_candidate_context.go:75;
// `changed_path` in v2/schemas/start.schema.json and v1/schemas/start-v2.schema.json), written once for every
// document that carries the frozen manifest (start/v3, status/v5 and v2 capture inputs, the capture preflight).
import { z } from "zod";

/** A raw Git mode: six octal digits (`000000` on the absent side). */
export const GitMode = z.string().regex(/^[0-7]{6}$/);

export const ChangedPathSchema = z.strictObject({
  path: z.string().min(1),
  status: z.enum(["A", "D", "M", "T"]),
  old_mode: GitMode,
  new_mode: GitMode,
  deleted: z.boolean(),
  type_changed: z.boolean(),
  mode_only: z.boolean(),
  intended_untracked: z.boolean(),
});
export type ChangedPath = z.infer<typeof ChangedPathSchema>;
