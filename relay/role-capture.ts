/** Capture operations of the self-contained provider role vectors (gentle-ai spawns its own pi). */
export const REVIEW_PROVIDER_ROLE_CAPTURE_OPERATION = Object.freeze({
  CAPTURE_REFUTER: "review.capture-refuter",
  CAPTURE_VALIDATION: "review.capture-validation",
} as const);

export type ReviewProviderRoleCaptureOperation =
  (typeof REVIEW_PROVIDER_ROLE_CAPTURE_OPERATION)[keyof typeof REVIEW_PROVIDER_ROLE_CAPTURE_OPERATION];

/** Frozen list of the role capture operations, in declaration order. */
export const REVIEW_PROVIDER_ROLE_CAPTURE_OPERATIONS: readonly ReviewProviderRoleCaptureOperation[] = Object.freeze(
  Object.values(REVIEW_PROVIDER_ROLE_CAPTURE_OPERATION),
);
