// Relay slot detection with gentle-pi's reviewHostRelaySlots semantics (relay reference §12.1), re-done in the harness.
import { ROLE_VECTOR_CAPTURE_OPERATIONS, type RoleVectorCaptureOperation } from "../contract/provider.ts";
import { typedSubmission, type CollectArgument, type CollectInput, type TypedSubmission } from "./decode.ts";

/** One relay slot as a host hands it to runReviewHostRelaySlot. */
export interface RelaySlot {
  readonly captureArgumentTokens: readonly string[];
  readonly submission?: TypedSubmission;
  readonly lens?: string;
  readonly order?: string;
  readonly subjectHash?: string;
}

/** An argument's value only when exactly one argument carries that name. */
export function argumentValue(input: CollectInput, name: string): string | undefined {
  const matches = input.arguments.filter((a) => a.name === name);
  return matches.length === 1 ? matches[0]?.value : undefined;
}

/** The provider's token, or the `--name=value` fallback (no `_` to `-` conversion). */
export function renderToken(argument: CollectArgument): string {
  return argument.token ?? `--${argument.name}=${argument.value}`;
}

/** True for a review.capture-result input carrying exactly one materialize=true and one agent=pi. */
export function isRelayInput(input: CollectInput): boolean {
  return (
    input.capture_operation === "review.capture-result" &&
    argumentValue(input, "materialize") === "true" &&
    argumentValue(input, "agent") === "pi"
  );
}

/** Every relay slot, in provider order. */
export function relaySlots(inputs: readonly CollectInput[]): readonly RelaySlot[] {
  return inputs.filter(isRelayInput).map((input) => {
    const lens = argumentValue(input, "lens");
    const order = argumentValue(input, "order");
    const subjectHash = input.artifact_subject?.subject_hash;
    return {
      captureArgumentTokens: input.arguments.map(renderToken),
      ...(input.submission === undefined ? {} : { submission: typedSubmission(input.submission) }),
      ...(lens === undefined ? {} : { lens }),
      ...(order === undefined ? {} : { order }),
      ...(subjectHash === undefined ? {} : { subjectHash }),
    };
  });
}

/** A self-contained role vector a host runs verbatim as `gentle-ai review <verb> <argumentTokens>`. */
export interface RoleVectorSlot {
  readonly captureOperation: RoleVectorCaptureOperation;
  readonly argumentTokens: readonly string[];
  readonly name: string;
}

/** True for a refuter/validation role input carrying exactly one execute=true and one agent=pi. */
export function isRoleVectorInput(input: CollectInput): boolean {
  return (
    (ROLE_VECTOR_CAPTURE_OPERATIONS as readonly string[]).includes(input.capture_operation) &&
    argumentValue(input, "execute") === "true" &&
    argumentValue(input, "agent") === "pi"
  );
}

/** Every role vector, in provider order, tokens rendered as the provider gave them. */
export function roleVectorSlots(inputs: readonly CollectInput[]): readonly RoleVectorSlot[] {
  return inputs.filter(isRoleVectorInput).map((input) => ({
    captureOperation: input.capture_operation as RoleVectorCaptureOperation,
    argumentTokens: input.arguments.map(renderToken),
    name: input.name,
  }));
}
