// Value formats the review-integration schemas share (`$defs` sha256, git trees, lineage ids), written once.
import { z } from "zod";

/** `sha256:` + 64 lowercase hex (`$defs/sha256`). */
export const Sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** A Git tree id: 40 hex or, for SHA-256 repositories, 64 hex. */
export const GitTree = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/);

/** A lineage id (`^[a-z0-9]+(?:-[a-z0-9]+)*$`). */
export const LineageId = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

/** The four reviewer lenses, in their published enum order. */
export const LensName = z.enum(["review-risk", "review-resilience", "review-readability", "review-reliability"]);

/** A non-negative JSON integer. */
export const NonNegativeInt = z.number().int().min(0);
