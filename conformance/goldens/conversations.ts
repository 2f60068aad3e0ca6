// The shipped conversations: how a host (gentle-pi's controller, reduced to what the relay needs) walks one
// provider through a review. Used only while recording; a golden stores the steps actually taken.
import type { Host } from "./host.ts";
import { statusArgv } from "../contract/provider.ts";
import { replyCollectInputs, type TypedSubmission } from "../status/decode.ts";
import { relaySlots, renderToken, roleVectorSlots } from "../status/slots.ts";
import type { GoldenSubmission } from "./golden-schema.ts";

function mutable(submission: TypedSubmission | undefined): GoldenSubmission | undefined {
  if (submission === undefined) return undefined;
  return JSON.parse(JSON.stringify(submission)) as GoldenSubmission;
}

async function firstSlot(host: Host, cwd: string): Promise<{ tokens: string[]; submission: GoldenSubmission | undefined } | undefined> {
  const slot = relaySlots(replyCollectInputs(await host.provider(statusArgv(cwd, true), true)))[0];
  return slot === undefined ? undefined : { tokens: [...slot.captureArgumentTokens], submission: mutable(slot.submission) };
}

/** A conversation drives the host against whatever provider sits behind it. */
export type Conversation = (host: Host, cwd: string) => Promise<void>;

/** STATUS with `--agent pi`, every relay slot in provider order, then STATUS again. */
const lensCapture: Conversation = async (host, cwd) => {
  const slots = relaySlots(replyCollectInputs(await host.provider(statusArgv(cwd, true), true)));
  for (const slot of slots) {
    const submission = mutable(slot.submission);
    await host.slot({ kind: "slot", captureArgumentTokens: [...slot.captureArgumentTokens], ...(submission ? { submission } : {}) });
  }
  await host.provider(statusArgv(cwd, true), true);
};

/**
 * An old binary has no relay surface: its STATUS offers bare inputs, so the host takes the first capture-result
 * input and completes it the way a v2.4.0 provider would have (`--agent=pi --materialize=true`, `--input={{value}}`).
 */
const unknownFlag: Conversation = async (host, cwd) => {
  await host.provider(statusArgv(cwd, true), true);
  const input = replyCollectInputs(await host.provider(statusArgv(cwd, false), true)).find((i) => i.capture_operation === "review.capture-result");
  const binding = input?.arguments.map(renderToken) ?? [];
  await host.slot({
    kind: "slot",
    captureArgumentTokens: [...binding, "--agent=pi", "--materialize=true"],
    submission: {
      operationToken: "capture-result",
      argumentTokens: [...binding, "--input={{value}}"],
      values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", substitutionLocation: binding.length }],
    },
  });
};

/** The relay slot is refused by the handshake gate; STATUS without the handshake shows the provider's side. */
const handshakeRefusal: Conversation = async (host, cwd) => {
  const slot = await firstSlot(host, cwd);
  await host.provider(statusArgv(cwd, true), false);
  if (slot) await host.slot({ kind: "slot", captureArgumentTokens: slot.tokens, ...(slot.submission ? { submission: slot.submission } : {}) });
};

/** The first pi answer is refused at admission (slot not consumed); the same slot then succeeds. */
const admissionResubmit: Conversation = async (host, cwd) => {
  const slot = await firstSlot(host, cwd);
  if (slot === undefined) return;
  for (let i = 0; i < 2; i += 1) {
    await host.slot({ kind: "slot", captureArgumentTokens: slot.tokens, ...(slot.submission ? { submission: slot.submission } : {}) });
  }
  await host.provider(statusArgv(cwd, true), true);
};

/** Every role vector STATUS offers runs verbatim; STATUS again after each. */
const roleVector: Conversation = async (host, cwd) => {
  let vectors = roleVectorSlots(replyCollectInputs(await host.provider(statusArgv(cwd, true), true)));
  for (let guard = 0; vectors.length > 0 && guard < 4; guard += 1) {
    for (const v of vectors) await host.roleVector(v.captureOperation, v.argumentTokens);
    vectors = roleVectorSlots(replyCollectInputs(await host.provider(statusArgv(cwd, true), true)));
  }
};

/**
 * Correction FINALIZE (#279): STATUS names the provider-owned validation request; the relay's FINALIZE client
 * captures evidence if asked, binds the five-field validation document and finalizes.
 */
const correctionFinalize: Conversation = async (host, cwd) => {
  const reply = await host.provider(statusArgv(cwd, false), true);
  let requestHash = "";
  try {
    const status = JSON.parse(reply.stdout.toString("utf8")) as { validation_request?: { request_hash?: string } };
    requestHash = (status.validation_request?.request_hash ?? "").replace(/^sha256:/, "");
  } catch {
    // No STATUS object: the client's own preflight reports it.
  }
  await host.finalize({
    validation: {
      requestHash,
      originalCriteria: { passed: true, evidence: ["original acceptance criteria re-run on the corrected candidate: pass"] },
      correctionRegression: { passed: true, evidence: ["regression suite on the correction paths: pass"] },
      followUps: [],
    },
    evidence: { payloadBase64: Buffer.from("go test ./... ok\n").toString("base64"), outcome: "passed" },
  });
};

export const CONVERSATIONS: Readonly<Record<string, Conversation>> = {
  "lens-capture": lensCapture,
  "unknown-flag": unknownFlag,
  "handshake-refusal": handshakeRefusal,
  "admission-resubmit": admissionResubmit,
  "role-vector": roleVector,
  "correction-finalize": correctionFinalize,
};
