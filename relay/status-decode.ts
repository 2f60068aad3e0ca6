// Decodes the STATUS wire by hand, as gentle-pi does: a schema library here would load with every relay host (zod's
// ESM build is ~100 modules, each through the host's TypeScript loader), for two small shapes.
import type { ReviewCaptureSubmissionV1, ReviewCaptureSubmissionValueV1, ReviewCollectInputV3 } from "./types.ts";

type Wire = Readonly<Record<string, unknown>>;

/** Thrown for a STATUS wire value of the wrong shape; the message names the field's path. */
export class StatusDecodeError extends TypeError {
  override readonly name = "StatusDecodeError";
}

function fail(path: string, expected: string, value: unknown): never {
  const got = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  throw new StatusDecodeError(`STATUS ${path}: expected ${expected}, got ${got}`);
}

function object(value: unknown, path: string): Wire {
  if (value === null || typeof value !== "object" || Array.isArray(value)) fail(path, "an object", value);
  return value as Wire;
}

function string(value: unknown, path: string): string {
  return typeof value === "string" ? value : fail(path, "a string", value);
}

function number(value: unknown, path: string): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fail(path, "a finite number", value);
}

function array<T>(value: unknown, path: string, item: (v: unknown, path: string) => T): T[] {
  if (!Array.isArray(value)) fail(path, "an array", value);
  return value.map((v, i) => item(v, `${path}[${i}]`));
}

/** An optional field: absent (or undefined) stays undefined, anything else must decode. */
function optional<T>(wire: Wire, key: string, path: string, decode: (v: unknown, path: string) => T): T | undefined {
  const value = wire[key];
  return value === undefined ? undefined : decode(value, `${path}.${key}`);
}

function decodeValue(value: unknown, path: string): ReviewCaptureSubmissionValueV1 {
  const wire = object(value, path);
  const schema = optional(wire, "schema", path, string);
  const minimum = optional(wire, "minimum", path, number);
  const maximum = optional(wire, "maximum", path, number);
  const allowed = optional(wire, "allowed_values", path, (v, p) => array(v, p, string));
  return {
    slot: string(wire.slot, `${path}.slot`),
    domain: string(wire.domain, `${path}.domain`),
    substitutionLocation: number(wire.substitution_location, `${path}.substitution_location`),
    ...(schema !== undefined ? { schema } : {}),
    ...(minimum !== undefined ? { minimum } : {}),
    ...(maximum !== undefined ? { maximum } : {}),
    ...(allowed !== undefined ? { allowedValues: allowed } : {}),
  };
}

function decodeSubmission(value: unknown, path: string): ReviewCaptureSubmissionV1 {
  const wire = object(value, path);
  const operationToken = string(wire.operation_token, `${path}.operation_token`);
  const argumentTokens = array(wire.argument_tokens, `${path}.argument_tokens`, string);
  const single = optional(wire, "value", path, decodeValue);
  const legacy = optional(wire, "values", path, (v, p) => array(v, p, decodeValue));
  return { operationToken, argumentTokens, values: single !== undefined ? [single] : (legacy ?? []) };
}

/**
 * Decodes a STATUS submission descriptor; the singular v5 `value` and the legacy `values` array both map to `values`.
 */
export function decodeReviewCaptureSubmission(wire: unknown): ReviewCaptureSubmissionV1 {
  return decodeSubmission(wire, "submission");
}

/** Decodes one STATUS `next_transition.collect.inputs[]` entry (snake_case wire) into the camelCase collect input. */
export function decodeReviewCollectInput(value: unknown): ReviewCollectInputV3 {
  const path = "collect input";
  const wire = object(value, path);
  const argument = (v: unknown, p: string): ReviewCollectInputV3["arguments"][number] => {
    const a = object(v, p);
    const token = optional(a, "token", p, string);
    return {
      name: string(a.name, `${p}.name`),
      value: string(a.value, `${p}.value`),
      ...(token !== undefined ? { token } : {}),
    };
  };
  const name = string(wire.name, `${path}.name`);
  const schema = string(wire.schema, `${path}.schema`);
  const captureOperation = string(wire.capture_operation, `${path}.capture_operation`);
  const args = array(wire.arguments, `${path}.arguments`, argument);
  const submission = optional(wire, "submission", path, decodeSubmission);
  const subject = optional(wire, "artifact_subject", path, (v, p) =>
    string(object(v, p).subject_hash, `${p}.subject_hash`),
  );
  const baseTree = optional(wire, "base_tree", path, string);
  const candidateTree = optional(wire, "candidate_tree", path, string);
  // Carried as they are: the relay passes them on and never reads inside them.
  const {
    provider_task: providerTask,
    candidate_diff: candidateDiff,
    changed_path_manifest: changedPathManifest,
    validation_request: validationRequest,
  } = wire;
  return {
    name,
    schema,
    captureOperation,
    arguments: args,
    ...(providerTask !== undefined ? { providerTask } : {}),
    ...(submission !== undefined ? { submission } : {}),
    ...(subject !== undefined ? { artifactSubject: { subjectHash: subject } } : {}),
    ...(candidateDiff !== undefined ? { candidateDiff } : {}),
    ...(baseTree !== undefined ? { baseTree } : {}),
    ...(candidateTree !== undefined ? { candidateTree } : {}),
    ...(changedPathManifest !== undefined ? { changedPathManifest } : {}),
    ...(validationRequest !== undefined ? { validationRequest } : {}),
  };
}
