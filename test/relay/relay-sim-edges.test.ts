// Relay edge cases against the simulator: aborts, cleanup failure, launch-free refusals, byte-exact round trips.
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  GENTLE_PI_REVIEW_RELAY_CONTRACT,
  GENTLE_PI_REVIEW_RELAY_CONTRACT_ENV,
  ReviewHostRelayError,
  runReviewHostRelaySlot,
  type ReviewHostRelaySlot,
} from "../../relay/index.ts";
import { blobBytes, SIM_GENTLE_AI, SIM_PI, type Sandbox } from "../support/relay-sandbox.ts";
import { expectNoLeftovers, sandboxPerTest } from "../support/relay-lifecycle.ts";
import { firstRelaySlot, relayCalls, relayRequest } from "../support/relay-slot.ts";
import { rejectionOf } from "../support/rejection.ts";

const newSandbox = sandboxPerTest();

function setup(scenario: Record<string, unknown>): { sandbox: Sandbox; slot: ReviewHostRelaySlot } {
  const sandbox = newSandbox(scenario);
  return { sandbox, slot: firstRelaySlot(sandbox) };
}

const failure = (promise: Promise<unknown>): Promise<unknown> => rejectionOf(promise, "expected the relay to fail");

/** Polls the transcript until a line of `program` appears (the simulator writes it before hanging). */
async function waitForCall(sandbox: Sandbox, program: "gentle-ai" | "pi", leg?: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (relayCalls(sandbox).some((l) => l.program === program && (leg === undefined || l.leg === leg))) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${program} never started`);
}

/** The exact prompt the simulator materializes for a slot (materialize is read-only). */
function realPrompt(sandbox: Sandbox, slot: ReviewHostRelaySlot): Buffer {
  const run = spawnSync(SIM_GENTLE_AI, ["review", "capture-result", ...slot.captureArgumentTokens], {
    cwd: sandbox.repo,
    env: {
      ...sandbox.env,
      GENTLE_AI_SIM_TRANSCRIPT: "",
      [GENTLE_PI_REVIEW_RELAY_CONTRACT_ENV]: GENTLE_PI_REVIEW_RELAY_CONTRACT,
    },
  });
  expect(run.status).toBe(0);
  return run.stdout;
}

const hang = (program: "gentle-ai" | "pi", leg?: "materialize" | "submit") => ({
  program,
  ...(program === "gentle-ai" ? { verb: "capture-result", leg } : {}),
  fault: { kind: "hang" },
});

describe("abort", () => {
  it("fails before any launch when the signal is already aborted", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0" });
    const error = await failure(runReviewHostRelaySlot(relayRequest(sandbox, slot, { signal: AbortSignal.abort() })));
    expect(error).toBeInstanceOf(ReviewHostRelayError);
    const e = error as ReviewHostRelayError;
    expect([e.kind, e.stage, e.message, e.mutationOutcome]).toEqual([
      "materialize-failed",
      "materialize",
      "gentle-ai prompt materialization could not start: The operation was aborted",
      "none",
    ]);
    expect(relayCalls(sandbox)).toEqual([]);
    expectNoLeftovers(sandbox);
  });

  it.each([
    [
      "materialize",
      hang("gentle-ai", "materialize"),
      "gentle-ai",
      "materialize-failed",
      "gentle-ai prompt materialization could not start: The operation was aborted",
      "none",
    ],
    ["pi", hang("pi"), "pi", "pi-failed", "pi subprocess failed", "none"],
    [
      "submit",
      hang("gentle-ai", "submit"),
      "gentle-ai",
      "submission-refused",
      "gentle-ai capture submission could not start: The operation was aborted",
      "unknown",
    ],
  ] as const)("kills the %s leg's process tree on abort", async (leg, fault, program, kind, message, outcome) => {
    const { sandbox, slot } = setup({ profile: "2.4.0", faults: [fault] });
    const controller = new AbortController();
    const running = failure(runReviewHostRelaySlot(relayRequest(sandbox, slot, { signal: controller.signal })));
    await waitForCall(sandbox, program, leg === "pi" ? undefined : leg);
    controller.abort();
    const e = (await running) as ReviewHostRelayError;
    expect(e).toBeInstanceOf(ReviewHostRelayError);
    expect([e.kind, e.message, e.mutationOutcome]).toEqual([kind, message, outcome]);
    expectNoLeftovers(sandbox);
  });
});

describe("cleanup", () => {
  /**
   * A launcher that runs the simulator, then makes the staged result's directory immutable (undeletable, even by root).
   */
  function lockingWrapper(sandbox: Sandbox): string {
    const path = join(sandbox.dir, "gentle-ai-locking");
    writeFileSync(
      path,
      `#!/bin/sh\n'${SIM_GENTLE_AI}' "$@"\nrc=$?\nfor a in "$@"; do case "$a" in --input=*) d=$(dirname "\${a#--input=}"); chattr +i "$d" 2>/dev/null || chmod 0500 "$d";; esac; done\nexit $rc\n`,
    );
    chmodSync(path, 0o755);
    return path;
  }

  it("types a staging cleanup failure after a successful submit as submission-refused/unknown", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0" });
    const error = (await failure(
      runReviewHostRelaySlot(relayRequest(sandbox, slot, { gentleAiExecutable: lockingWrapper(sandbox) })),
    )) as ReviewHostRelayError;
    expect(error).toBeInstanceOf(ReviewHostRelayError);
    expect([
      error.kind,
      error.stage,
      error.mutationOutcome,
      error.exitCode,
      error.elapsedMs,
      error.timeoutMs,
      error.stderr,
    ]).toEqual(["submission-refused", "submit", "unknown", null, null, null, ""]);
    expect(error.message).toMatch(
      /^Pi host relay result staging cleanup failed: E[A-Z]+: .*gentle-pi-host-relay-result-/,
    );
    // The only leftover is the locked staging directory (the sandbox unlocks it on dispose).
    expect(sandbox.tmpLeftovers()).toEqual([expect.stringMatching(/^gentle-pi-host-relay-result-/)]);
  });

  it("never lets a cleanup failure mask the primary submit failure", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0", pi: { result: { kind: "bytes", bytes: { text: "\n" } } } });
    const error = (await failure(
      runReviewHostRelaySlot(relayRequest(sandbox, slot, { gentleAiExecutable: lockingWrapper(sandbox) })),
    )) as ReviewHostRelayError;
    expect([error.kind, error.mutationOutcome, error.exitCode]).toEqual(["submission-refused", "none", 1]);
    expect(error.message).toMatch(/\[invalid_request\]$/);
  });
});

describe("private modes", () => {
  it("runs pi in a 0700 scratch dir and stages result.raw 0600 in a 0700 dir", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0" });
    const log = join(sandbox.dir, "modes.log");
    // Launchers that record the modes the relay prepared, then run the simulator unchanged.
    const piWrapper = join(sandbox.dir, "pi-modes");
    writeFileSync(piWrapper, `#!/bin/sh\nstat -c 'pi-cwd %a' . >> '${log}'\nexec '${SIM_PI}' "$@"\n`);
    const gaWrapper = join(sandbox.dir, "gentle-ai-modes");
    writeFileSync(
      gaWrapper,
      `#!/bin/sh\nfor a in "$@"; do case "$a" in --input=*) f="\${a#--input=}"; stat -c 'staged-dir %a' "$(dirname "$f")" >> '${log}'; stat -c 'staged-file %a' "$f" >> '${log}';; esac; done\nexec '${SIM_GENTLE_AI}' "$@"\n`,
    );
    chmodSync(piWrapper, 0o755);
    chmodSync(gaWrapper, 0o755);
    // A permissive umask must not widen the modes.
    const previous = process.umask(0);
    try {
      await runReviewHostRelaySlot(
        relayRequest(sandbox, slot, { piExecutable: piWrapper, gentleAiExecutable: gaWrapper }),
      );
    } finally {
      process.umask(previous);
    }
    expect(readFileSync(log, "utf8")).toBe("pi-cwd 700\nstaged-dir 700\nstaged-file 600\n");
    expectNoLeftovers(sandbox);
  });
});

describe("refusals before any launch", () => {
  it.each([
    [
      "missing submission",
      (s: ReviewHostRelaySlot) => ({ submission: undefined, captureArgumentTokens: s.captureArgumentTokens }),
      ReviewHostRelayError,
      "provider contract mismatch: the materialize capture input carries no provider-owned submission form; the host never synthesizes the completing form",
    ],
    [
      "no tokens",
      () => ({ captureArgumentTokens: [] }),
      TypeError,
      "Pi host relay requires the provider-issued capture tokens",
    ],
    [
      "an empty token",
      (s: ReviewHostRelaySlot) => ({ captureArgumentTokens: [...s.captureArgumentTokens, ""] }),
      TypeError,
      "Pi host relay capture tokens must all be non-empty strings",
    ],
    [
      "a relative executable",
      () => ({ gentleAiExecutable: "simulator/bin/gentle-ai" }),
      TypeError,
      "Pi host relay requires an absolute gentle-ai executable path",
    ],
  ] as const)("%s", async (_label, change, type, message) => {
    const { sandbox, slot } = setup({ profile: "2.4.0" });
    const error = await failure(runReviewHostRelaySlot({ ...relayRequest(sandbox, slot), ...change(slot) }));
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toBe(message);
    expect(relayCalls(sandbox)).toEqual([]);
    expectNoLeftovers(sandbox);
  });

  it("without gentleAiExecutable uses GENTLE_PI_GENTLE_AI_DEV_BINARY, else throws package-local-binary-missing", async () => {
    const { sandbox, slot } = setup({ profile: "2.4.0" });
    const { gentleAiExecutable: _omit, ...rest } = relayRequest(sandbox, slot);
    const error = await failure(runReviewHostRelaySlot(rest));
    expect(error).not.toBeInstanceOf(ReviewHostRelayError);
    expect((error as Error).message).toMatch(/^package-local-binary-missing: /);
    const result = await runReviewHostRelaySlot({
      ...rest,
      environment: { ...sandbox.env, GENTLE_PI_GENTLE_AI_DEV_BINARY: SIM_GENTLE_AI },
    });
    expect(result.resultByteLength).toBeGreaterThan(0);
    expectNoLeftovers(sandbox);
  });
});

describe("byte-exact round trips", () => {
  const ODD = Buffer.concat([
    Buffer.from("\nNUL:\u0000\u0000|CRLF:\r\n\r\n|", "utf8"),
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from("|invalid:", "utf8"),
    Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x80, 0xed, 0xa0, 0x80]),
    Buffer.from("\r", "latin1"),
  ]);

  it.each([
    ["append-crlf", "CRLF-terminated result"],
    ["prefix-bom", "BOM-prefixed result"],
  ] as const)(
    "carries NUL/CRLF/BOM/invalid UTF-8 prompt bytes to pi and a %s to submit unchanged",
    async (transform, _label) => {
      const { sandbox, slot } = setup({ profile: "2.4.0" });
      const prompt = Buffer.concat([realPrompt(sandbox, slot), ODD]);
      sandbox.writeScenario({
        profile: "2.4.0",
        pi: { result: { kind: "transform", transform } },
        faults: [
          {
            program: "gentle-ai",
            verb: "capture-result",
            leg: "materialize",
            fault: { kind: "stdout", bytes: { base64: prompt.toString("base64") } },
          },
        ],
      });
      const outcome = await runReviewHostRelaySlot(relayRequest(sandbox, slot)).then(
        (r) => r,
        (e: unknown) => e,
      );
      const [materialize, pi, submit] = relayCalls(sandbox);
      expect(blobBytes(materialize!.stdout).equals(prompt)).toBe(true);
      expect(blobBytes(pi!.stdin).equals(prompt)).toBe(true);
      const result = blobBytes(pi!.stdout);
      expect(result.subarray(...(transform === "append-crlf" ? [-2] : [0, 3])).toString("latin1")).toBe(
        transform === "append-crlf" ? "\r\n" : "\xef\xbb\xbf",
      );
      expect(blobBytes(submit!.files[0]!).equals(result)).toBe(true);
      // The provider tolerates a BOM before / CRLF after the JSON object, so the slot completes.
      expect(outcome).toMatchObject({ promptByteLength: prompt.length, resultByteLength: result.length });
      expect(JSON.parse((outcome as { submission: string }).submission)).toMatchObject({
        admission_decision: "completed",
      });
      expectNoLeftovers(sandbox);
    },
  );

  it("carries a 64 MiB prompt and a 64 MiB result exactly", async () => {
    const MiB64 = 64 * 1024 * 1024;
    const { sandbox, slot } = setup({ profile: "2.4.0" });
    sandbox.writeScenario({
      profile: "2.4.0",
      faults: [
        {
          program: "gentle-ai",
          verb: "capture-result",
          leg: "materialize",
          fault: { kind: "oversized-output", bytes: MiB64 },
        },
        { program: "pi", fault: { kind: "oversized-output", bytes: MiB64 } },
      ],
    });
    // Digest-only transcript for the big blobs: sha256 + length equality is the byte-exact check.
    const env = { ...sandbox.env, GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX: "0" };
    const outcome = await runReviewHostRelaySlot(relayRequest(sandbox, slot, { environment: env })).then(
      (r) => r,
      (e: unknown) => e,
    );
    const [materialize, pi, submit] = relayCalls(sandbox);
    expect(materialize!.stdout.length).toBe(MiB64);
    expect(pi!.stdin).toEqual(materialize!.stdout);
    expect(pi!.stdout.length).toBe(MiB64);
    const { path: _path, ...file } = submit!.files[0]!;
    expect(file).toEqual(pi!.stdout);
    // Every byte reached the provider, which refuses a 64 MiB reviewer payload as over its native bound: typed, none.
    expect(outcome).toBeInstanceOf(ReviewHostRelayError);
    const e = outcome as ReviewHostRelayError;
    expect([e.kind, e.stage, e.mutationOutcome, e.message]).toEqual([
      "submission-refused",
      "submit",
      "none",
      "Error: lens provider result admission incomplete: reviewer payload is empty or exceeds the native bound [invalid_request]",
    ]);
    expectNoLeftovers(sandbox);
  });
});
