// A materialized review prompt as gentle-ai prints it, for feeding the fake pi without running gentle-ai first.

/** A minimal materialized prompt: binding line, name-status block. */
export function promptFor(subjectHash: string, lens: string, paths: readonly string[]): Buffer {
  const binding = {
    lineage: "review-0123456789abcdef",
    target: `sha256:${"1".repeat(64)}`,
    lens,
    order: 0,
    revision: `sha256:${"2".repeat(64)}`,
    repository_context: `rctx1_${"3".repeat(64)}`,
    subject_hash: subjectHash,
  };
  return Buffer.from(
    `GENTLE_AI_REVIEW_BINDING ${JSON.stringify(binding)}\nGENTLE_AI_REVIEW_CONTEXT {}\nGENTLE_AI_REVIEW_NAME_STATUS\n${paths.map((p) => `M\t${p}`).join("\n")}\nGENTLE_AI_REVIEW_NAME_STATUS_END\nGENTLE_AI_REVIEW_CONTEXT_END\n`,
    "utf8",
  );
}
