import type { ReviewHostRelayFailureKind, ReviewHostRelayStage } from "./errors.ts";

export type { ReviewHostRelayFailureKind, ReviewHostRelayStage };

/** One value slot of a provider-owned submission form. */
export interface ReviewCaptureSubmissionValueV1 {
  readonly slot: string;
  readonly domain: string;
  readonly substitutionLocation: number;
  readonly schema?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly allowedValues?: readonly string[];
}

/** Typed provider-owned completing form (both wire forms, `value` and `values`, decode to this shape). */
export interface ReviewCaptureSubmissionV1 {
  readonly operationToken: string;
  readonly argumentTokens: readonly string[];
  readonly values: readonly ReviewCaptureSubmissionValueV1[];
}

/** One provider-issued collect-input argument; `token` is absent on `external.*` inputs. */
export interface ReviewCollectArgumentV3 {
  readonly name: string;
  readonly value: string;
  readonly token?: string;
}

/** A STATUS collect input in camelCase; fields the relay never reads are kept opaque. */
export interface ReviewCollectInputV3 {
  readonly name: string;
  readonly schema: string;
  readonly captureOperation: string;
  readonly arguments: readonly ReviewCollectArgumentV3[];
  readonly providerTask?: unknown;
  readonly submission?: ReviewCaptureSubmissionV1;
  readonly artifactSubject?: { readonly subjectHash: string };
  readonly candidateDiff?: unknown;
  readonly baseTree?: string;
  readonly candidateTree?: string;
  readonly changedPathManifest?: unknown;
  readonly validationRequest?: unknown;
}

/** One relay slot request (reference §2.1). */
export interface ReviewHostRelayRequest {
  readonly captureArgumentTokens: readonly string[];
  readonly targetCwd?: string;
  readonly submission?: ReviewCaptureSubmissionV1;
  readonly gentleAiExecutable?: string;
  readonly piExecutable?: string;
  readonly environment?: NodeJS.ProcessEnv;
  readonly gentleAiTimeoutMs?: number;
  readonly piTimeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** A completed slot: byte counts and the opaque submit stdout (UTF-8). */
export interface ReviewHostRelayResult {
  readonly promptByteLength: number;
  readonly resultByteLength: number;
  readonly submission: string;
}

export type ReviewHostRelayRunner = (request: ReviewHostRelayRequest) => Promise<ReviewHostRelayResult>;
