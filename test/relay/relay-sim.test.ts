// runReviewHostRelaySlot against the simulator (fake gentle-ai + fake pi), checked through the transcript.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  GENTLE_PI_REVIEW_RELAY_CONTRACT,
  REVIEW_HOST_RELAY_PI_ARGV,
  ReviewHostRelayError,
  reviewHostRelayPiTimeoutMessage,
  runReviewHostRelaySlot,
  type ReviewHostRelaySlot,
} from "../../relay/index.ts";
import { blobBytes, SIM_GENTLE_AI, type Sandbox } from "../support/relay-sandbox.ts";
import { expectNoLeftovers, sandboxPerTest } from "../support/relay-lifecycle.ts";
import { firstRelaySlot, relayCalls, relayRequest } from "../support/relay-slot.ts";
import { rejectionOf } from "../support/rejection.ts";

const SUBMIT_PATH = /^--input=(.*\/gentle-pi-host-relay-result-[A-Za-z0-9]{6}\/result\.raw)$/;

const newSandbox = sandboxPerTest();

/**
 * A sandbox on `scenario` and the first relay slot its STATUS offers (read under `slotProfile`, default the scenario's
 * own).
 */
function setup(
  scenario: Record<string, unknown>,
  slotProfile?: string,
): { sandbox: Sandbox; slot: ReviewHostRelaySlot } {
  const sandbox = newSandbox(slotProfile === undefined ? scenario : { ...scenario, profile: slotProfile });
  const slot = firstRelaySlot(sandbox);
  if (slotProfile !== undefined) sandbox.writeScenario(scenario);
  return { sandbox, slot };
}

const failure = (promise: Promise<unknown>): Promise<ReviewHostRelayError> =>
  rejectionOf(promise, "expected the relay to fail", ReviewHostRelayError);

/** A wrapper executable (in the sandbox) that runs the simulator through `env` with the given arguments. */
function envWrapper(sandbox: Sandbox, name: string, envArgs: readonly string[]): string {
  const path = join(sandbox.dir, name);
  writeFileSync(
    path,
    `#!/bin/sh\nexec /usr/bin/env ${envArgs.map((a) => `'${a}'`).join(" ")} '${SIM_GENTLE_AI}' "$@"\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

const materializeFault = (fault: Record<string, unknown>) => ({
  program: "gentle-ai",
  verb: "capture-result",
  leg: "materialize",
  fault,
});
const submitFault = (fault: Record<string, unknown>) => ({
  program: "gentle-ai",
  verb: "capture-result",
  leg: "submit",
  fault,
});
const piFault = (fault: Record<string, unknown>) => ({ program: "pi", fault });

describe("relay happy path", () => {
  it.each(["2.4.0", "2.5.0"])("relays one slot end to end on profile %s", async (profile) => {
    const { sandbox, slot } = setup({ profile });
    // An inherited handshake value must be overridden for gentle-ai and left untouched for pi; none is ever added to
    // pi.
    const inherited = profile === "2.4.0" ? "inherited-value" : null;
    const env = inherited === null ? sandbox.env : { ...sandbox.env, GENTLE_PI_REVIEW_RELAY_CONTRACT: inherited };
    const result = await runReviewHostRelaySlot(relayRequest(sandbox, slot, { environment: env }));

    const [materialize, pi, submit, ...rest] = relayCalls(sandbox);
    expect(rest).toEqual([]);
    if (materialize === undefined || pi === undefined || submit === undefined) throw new Error("missing calls");
    expect([materialize.program, materialize.leg, pi.program, submit.program, submit.leg]).toEqual([
      "gentle-ai",
      "materialize",
      "pi",
      "gentle-ai",
      "submit",
    ]);

    expect(materialize.argv).toEqual(["review", "capture-result", ...slot.captureArgumentTokens]);
    expect(materialize.cwd).toBe(sandbox.repo);
    expect(materialize.handshake).toBe(GENTLE_PI_REVIEW_RELAY_CONTRACT);
    expect(materialize.stdin.length).toBe(0);

    expect(pi.argv).toEqual([...REVIEW_HOST_RELAY_PI_ARGV]);
    expect(pi.handshake).toBe(inherited);
    expect(pi.cwd.startsWith(join(sandbox.tmp, "gentle-pi-opaque-reviewer-"))).toBe(true);
    expect(pi.cwdListing).toEqual([]);
    expect(blobBytes(pi.stdin).equals(blobBytes(materialize.stdout))).toBe(true);

    const tokens = slot.submission?.argumentTokens ?? [];
    const location = slot.submission?.values[0]?.substitutionLocation ?? -1;
    expect(submit.argv.slice(0, 2)).toEqual(["review", slot.submission?.operationToken]);
    const substituted = submit.argv[2 + location] ?? "";
    const staged = SUBMIT_PATH.exec(substituted)?.[1];
    expect(staged?.startsWith(join(sandbox.tmp, "gentle-pi-host-relay-result-"))).toBe(true);
    expect(submit.argv).toEqual([
      "review",
      slot.submission?.operationToken,
      ...tokens.map((t, i) => (i === location ? `--input=${staged}` : t)),
    ]);
    expect(submit.handshake).toBe(GENTLE_PI_REVIEW_RELAY_CONTRACT);
    expect(submit.cwd).toBe(sandbox.repo);
    expect(submit.stdin.length).toBe(0);
    expect(submit.files.map((f) => f.path)).toEqual([staged]);
    expect(blobBytes(submit.files[0]!).equals(blobBytes(pi.stdout))).toBe(true);

    expect(result).toEqual({
      promptByteLength: materialize.stdout.length,
      resultByteLength: pi.stdout.length,
      submission: blobBytes(submit.stdout).toString("utf8"),
    });
    expect(JSON.parse(result.submission)).toMatchObject({ admission_decision: "completed", lens: slot.lens });
    expectNoLeftovers(sandbox);
  });
});

describe("materialize leg", () => {
  it("classifies a pre-relay binary's unknown flag as relay-unavailable", async () => {
    const { sandbox, slot } = setup({ profile: "2.3.0" }, "2.4.0");
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot)));
    const [materialize, ...rest] = relayCalls(sandbox);
    expect(rest).toEqual([]);
    expect([error.kind, error.stage, error.message, error.mutationOutcome, error.exitCode, error.timedOut]).toEqual([
      "relay-unavailable",
      "materialize",
      "provider relay requires a gentle-ai build with the pi host relay surface",
      "none",
      1,
      false,
    ]);
    expect(error.stderr).toBe("Error: flag provided but not defined: -agent\n");
    expect(error.stderr).toBe(blobBytes(materialize!.stderr).toString("utf8"));
    expect(error.timeoutMs).toBe(120000);
    expectNoLeftovers(sandbox);
  });

  // The relay always injects the handshake, so a refusal needs something between relay and provider that drops or
  // changes it: a launcher wrapper running the simulator under `env -u` / `env NAME=wrong` (a tampered environment).
  it.each([
    ["removed", ["-u", "GENTLE_PI_REVIEW_RELAY_CONTRACT"], null],
    ["wrong", ["GENTLE_PI_REVIEW_RELAY_CONTRACT=gentle-pi.review-relay/v0"], "gentle-pi.review-relay/v0"],
  ] as const)(
    "reports the provider's handshake refusal verbatim when the handshake is %s in transit",
    async (_label, envArgs, seen) => {
      const { sandbox, slot } = setup({ profile: "2.4.0" });
      const wrapper = envWrapper(sandbox, "gentle-ai-tampered", envArgs);
      const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot, { gentleAiExecutable: wrapper })));
      const [materialize, ...rest] = relayCalls(sandbox);
      expect(rest).toEqual([]);
      expect(materialize!.handshake).toBe(seen);
      const stderr = blobBytes(materialize!.stderr).toString("utf8");
      expect(stderr).toBe(
        "Error: the active runtime is not eligible for immutable receipt review; exit receipt-driven review with `gentle-ai review mode disable --scope clone --cwd <repo>`; supported immutable review runtimes: claude-code, opencode, codex [invalid_request]\n",
      );
      expect([error.kind, error.stage, error.message, error.stderr, error.exitCode, error.mutationOutcome]).toEqual([
        "handshake-refused",
        "materialize",
        stderr,
        stderr,
        1,
        "none",
      ]);
      expectNoLeftovers(sandbox);
    },
  );

  it("reports empty-prompt when materialize prints nothing", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0", faults: [materializeFault({ kind: "empty-output" })] });
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot)));
    expect([
      error.kind,
      error.stage,
      error.message,
      error.exitCode,
      error.stderr,
      error.timedOut,
      error.timeoutMs,
      error.mutationOutcome,
    ]).toEqual([
      "empty-prompt",
      "materialize",
      "gentle-ai prompt materialization produced no bytes",
      0,
      "",
      false,
      120000,
      "none",
    ]);
    expect(error.elapsedMs).toEqual(expect.any(Number));
    expect(relayCalls(sandbox).map((l) => l.program)).toEqual(["gentle-ai"]);
    expectNoLeftovers(sandbox);
  });

  it("reports materialize-failed for an unclassified refusal", async () => {
    const { sandbox, slot } = setup({
      profile: "2.4.0",
      faults: [
        materializeFault({ kind: "stderr", bytes: { text: "Error: boom [capture_binding_mismatch]\n" } }),
        materializeFault({ kind: "exit-code", code: 1 }),
      ],
    });
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot)));
    expect([error.kind, error.message, error.exitCode, error.stderr]).toEqual([
      "materialize-failed",
      "gentle-ai prompt materialization failed",
      1,
      "Error: boom [capture_binding_mismatch]\n",
    ]);
    expectNoLeftovers(sandbox);
  });

  it("reports materialize-failed for the provider's stale-binding refusal", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0" });
    const stale = slot.captureArgumentTokens.map((t) =>
      t.startsWith("--subject-hash=") ? `--subject-hash=sha256:${"0".repeat(64)}` : t,
    );
    const error = await failure(
      runReviewHostRelaySlot(relayRequest(sandbox, { ...slot, captureArgumentTokens: stale })),
    );
    const stderr = blobBytes(relayCalls(sandbox)[0]!.stderr).toString("utf8");
    expect(stderr).toMatch(/\[capture_binding_mismatch\]\n$/);
    expect([error.kind, error.stage, error.message, error.stderr, error.exitCode, error.mutationOutcome]).toEqual([
      "materialize-failed",
      "materialize",
      "gentle-ai prompt materialization failed",
      stderr,
      1,
      "none",
    ]);
    expect(relayCalls(sandbox)).toHaveLength(1);
    expectNoLeftovers(sandbox);
  });

  it("SIGKILLs a hung materialize at its bound", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0", faults: [materializeFault({ kind: "hang" })] });
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot, { gentleAiTimeoutMs: 400 })));
    expect([error.kind, error.stage, error.exitCode, error.timedOut, error.timeoutMs, error.mutationOutcome]).toEqual([
      "materialize-failed",
      "materialize",
      null,
      true,
      400,
      "none",
    ]);
    expect(error.elapsedMs).toBeGreaterThanOrEqual(400);
    expect(error.message).toBe(`gentle-ai prompt materialization exceeded its 400ms bound after ${error.elapsedMs}ms`);
    expectNoLeftovers(sandbox);
  });

  it("SIGKILLs the whole process tree, grandchildren included", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0", faults: [materializeFault({ kind: "hang" })] });
    // A launcher that keeps running as the simulator's parent (no exec): killing only the child would orphan the
    // simulator.
    const wrapper = join(sandbox.dir, "gentle-ai-parent");
    writeFileSync(wrapper, `#!/bin/sh\n'${SIM_GENTLE_AI}' "$@"\nexit $?\n`);
    chmodSync(wrapper, 0o755);
    const error = await failure(
      runReviewHostRelaySlot(relayRequest(sandbox, slot, { gentleAiExecutable: wrapper, gentleAiTimeoutMs: 400 })),
    );
    expect([error.kind, error.timedOut]).toEqual(["materialize-failed", true]);
    expect(relayCalls(sandbox)).toHaveLength(1);
    expectNoLeftovers(sandbox);
  });

  it("reports could-not-start for a missing executable", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0" });
    const missing = join(sandbox.dir, "no-such-gentle-ai");
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot, { gentleAiExecutable: missing })));
    expect([error.kind, error.stage, error.message, error.exitCode, error.elapsedMs, error.mutationOutcome]).toEqual([
      "materialize-failed",
      "materialize",
      `gentle-ai prompt materialization could not start: spawn ${missing} ENOENT`,
      null,
      null,
      "none",
    ]);
    expectNoLeftovers(sandbox);
  });
});

describe("pi leg", () => {
  it("reports pi-failed with pi's exit code and stderr", async () => {
    const { sandbox, slot } = setup({
      profile: "2.4.0",
      pi: { exitCode: 3, stderr: { text: "pi: model unavailable\n" } },
    });
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot)));
    expect([
      error.kind,
      error.stage,
      error.message,
      error.exitCode,
      error.stderr,
      error.timedOut,
      error.mutationOutcome,
    ]).toEqual(["pi-failed", "pi", "pi subprocess failed", 3, "pi: model unavailable\n", false, "none"]);
    expect(relayCalls(sandbox).map((l) => l.program)).toEqual(["gentle-ai", "pi"]);
    expectNoLeftovers(sandbox);
  });

  it("SIGKILLs a hung pi at piTimeoutMs and reports pi-timed-out with its evidence", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0", faults: [piFault({ kind: "hang" })] });
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot, { piTimeoutMs: 500 })));
    const materialize = relayCalls(sandbox)[0]!;
    expect([error.kind, error.stage, error.exitCode, error.timedOut, error.timeoutMs, error.mutationOutcome]).toEqual([
      "pi-timed-out",
      "pi",
      null,
      true,
      500,
      "none",
    ]);
    expect(error.elapsedMs).toBeGreaterThanOrEqual(500);
    expect(error.message).toBe(reviewHostRelayPiTimeoutMessage(error.elapsedMs!, 500, materialize.stdout.length));
    expectNoLeftovers(sandbox);
  });

  it("derives the pi bound from the env override when piTimeoutMs is absent", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0", faults: [piFault({ kind: "hang" })] });
    const env = { ...sandbox.env, GENTLE_PI_REVIEW_RELAY_PI_TIMEOUT_MS: "600" };
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot, { environment: env })));
    expect([error.kind, error.timeoutMs]).toEqual(["pi-timed-out", 600]);
    expectNoLeftovers(sandbox);
  });

  it("reports pi-empty-output when pi exits 0 silently", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0", pi: { result: { kind: "bytes", bytes: { text: "" } } } });
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot)));
    expect([error.kind, error.stage, error.message, error.exitCode, error.mutationOutcome]).toEqual([
      "pi-empty-output",
      "pi",
      "pi subprocess produced no output bytes",
      0,
      "none",
    ]);
    expectNoLeftovers(sandbox);
  });

  it("reports pi-launch-failed with the adapter's nested message", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0" });
    const missing = join(sandbox.dir, "no-such-pi");
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot, { piExecutable: missing })));
    expect([error.kind, error.stage, error.message, error.mutationOutcome]).toEqual([
      "pi-launch-failed",
      "pi",
      `pi subprocess could not start: Pi process could not start: spawn ${missing} ENOENT`,
      "none",
    ]);
    expectNoLeftovers(sandbox);
  });
});

describe("submit leg", () => {
  it("maps a typed [invalid_request] admission refusal to mutationOutcome none with the trimmed stderr", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0", pi: { result: { kind: "bytes", bytes: { text: "\n" } } } });
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot)));
    const submit = relayCalls(sandbox)[2]!;
    const stderr = blobBytes(submit.stderr).toString("utf8");
    expect(stderr).toBe(
      "Error: reviewer result payload is empty or whitespace-only: the task may have completed without producing output [invalid_request]\n",
    );
    expect([
      error.kind,
      error.stage,
      error.message,
      error.stderr,
      error.exitCode,
      error.timedOut,
      error.timeoutMs,
      error.mutationOutcome,
    ]).toEqual(["submission-refused", "submit", stderr.trim(), stderr, 1, false, 120000, "none"]);
    expect(blobBytes(submit.files[0]!).toString("utf8")).toBe("\n");
    expectNoLeftovers(sandbox);
  });

  it("maps an untyped refusal ([rdd_disabled]) to mutationOutcome unknown", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0", lineage: { rddDisabled: true } });
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot)));
    const submit = relayCalls(sandbox)[2]!;
    expect(blobBytes(submit.stderr).toString("utf8")).toMatch(/\[rdd_disabled\]\n$/);
    expect([error.kind, error.stage, error.message, error.exitCode, error.mutationOutcome]).toEqual([
      "submission-refused",
      "submit",
      "gentle-ai refused the relayed capture submission",
      1,
      "unknown",
    ]);
    expectNoLeftovers(sandbox);
  });

  it("maps a submit killed by a signal to unknown", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0", faults: [submitFault({ kind: "signal", signal: "SIGKILL" })] });
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot)));
    expect([error.kind, error.message, error.exitCode, error.timedOut, error.mutationOutcome]).toEqual([
      "submission-refused",
      "gentle-ai refused the relayed capture submission",
      null,
      false,
      "unknown",
    ]);
    expectNoLeftovers(sandbox);
  });

  it("SIGKILLs a hung submit at its bound: unknown, with the timeout message", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0", faults: [submitFault({ kind: "hang" })] });
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot, { gentleAiTimeoutMs: 2000 })));
    expect([error.kind, error.stage, error.timedOut, error.timeoutMs, error.exitCode, error.mutationOutcome]).toEqual([
      "submission-refused",
      "submit",
      true,
      2000,
      null,
      "unknown",
    ]);
    expect(error.message).toBe(`gentle-ai capture submission exceeded its 2000ms bound after ${error.elapsedMs}ms`);
    expectNoLeftovers(sandbox);
  });
});
