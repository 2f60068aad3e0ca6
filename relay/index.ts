// Public API of the clean-room gentle-pi 2.3.0 Pi host relay (lib/review-host-relay.ts and its companions).
export { GENTLE_PI_REVIEW_RELAY_CONTRACT_ENV, GENTLE_PI_REVIEW_RELAY_CONTRACT } from "./handshake.ts";
export {
  REVIEW_HOST_RELAY_FAILURE,
  ReviewHostRelayError,
  type ReviewHostRelayErrorDetails,
  type ReviewHostRelayFailureKind,
  type ReviewHostRelayMutationOutcome,
  type ReviewHostRelayStage,
} from "./errors.ts";
export {
  REVIEW_HOST_RELAY_PI_TIMEOUT_ENV,
  REVIEW_HOST_RELAY_PI_TIMEOUT_FLOOR_MS,
  REVIEW_HOST_RELAY_PI_TIMEOUT_PER_MEBIBYTE_MS,
  REVIEW_HOST_RELAY_PI_TIMEOUT_MAX_MS,
  resolveReviewHostRelayPiTimeoutMs,
  reviewHostRelayPiTimeoutMessage,
} from "./timeouts.ts";
export {
  REVIEW_HOST_RELAY_UNAVAILABLE_MESSAGE,
  classifyReviewHostRelayRefusal,
  isReviewHostRelayAdmissionRefusal,
} from "./classify.ts";
export {
  REVIEW_HOST_RELAY_SUBMISSION_VALUE_SLOT,
  REVIEW_HOST_RELAY_SUBMISSION_MISSING_MESSAGE,
  resolveReviewHostRelaySubmission,
  type ReviewHostRelaySubmissionBinding,
} from "./submission.ts";
export {
  reviewHostRelaySlots,
  isReviewHostRelayCollectInput,
  reviewProviderRoleVectorSlots,
  isReviewProviderRoleVectorInput,
  type ReviewHostRelaySlot,
  type ReviewProviderRoleVectorSlot,
} from "./slots.ts";
export {
  REVIEW_PROVIDER_ROLE_CAPTURE_OPERATION,
  REVIEW_PROVIDER_ROLE_CAPTURE_OPERATIONS,
  type ReviewProviderRoleCaptureOperation,
} from "./role-capture.ts";
export {
  OPAQUE_PI_REVIEWER_ARGV,
  OPAQUE_PI_REVIEWER_TRANSPORT_FAILURE,
  OpaquePiReviewerTransportError,
  runOpaquePiReviewer,
  type OpaquePiReviewerOptions,
  type OpaquePiReviewerResult,
  type OpaquePiReviewerTransportErrorDetails,
  type OpaquePiReviewerTransportFailureKind,
} from "./pi-adapter.ts";
export { GENTLE_PI_GENTLE_AI_DEV_BINARY_ENV, resolveGentleAiBinary } from "./gentle-ai-binary.ts";
export { runReviewHostRelaySlot } from "./run-slot.ts";
export type {
  ReviewHostRelayRequest,
  ReviewHostRelayResult,
  ReviewHostRelayRunner,
  ReviewCaptureSubmissionV1,
  ReviewCaptureSubmissionValueV1,
  ReviewCollectInputV3,
  ReviewCollectArgumentV3,
} from "./types.ts";

import { OPAQUE_PI_REVIEWER_ARGV } from "./pi-adapter.ts";
/** Re-export of OPAQUE_PI_REVIEWER_ARGV under the relay's name. */
export const REVIEW_HOST_RELAY_PI_ARGV: readonly string[] = OPAQUE_PI_REVIEWER_ARGV;
