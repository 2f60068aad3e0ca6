// The opaque pi adapter on its own, against the simulator's fake pi.
import { describe, expect, it } from "vitest";
import {
  OPAQUE_PI_REVIEWER_ARGV,
  OPAQUE_PI_REVIEWER_TRANSPORT_FAILURE,
  OpaquePiReviewerTransportError,
  runOpaquePiReviewer,
} from "../../relay/index.ts";
import { blobBytes, SIM_PI } from "../support/relay-sandbox.ts";
import { expectNoLeftovers, sandboxPerTest } from "../support/relay-lifecycle.ts";
import { rejectionOf } from "../support/rejection.ts";
import { LOCKED_DOWN_PI_ARGV } from "../support/contract.ts";

const newSandbox = sandboxPerTest();

const PROMPT = Buffer.from("GENTLE_AI_REVIEW_BINDING {}\n\u0000\r\n\xff", "latin1");

const adapterFailure = (promise: Promise<unknown>): Promise<OpaquePiReviewerTransportError> =>
  rejectionOf(promise, "expected an adapter failure", OpaquePiReviewerTransportError);

describe("runOpaquePiReviewer", () => {
  it("exports the kinds and the locked-down argv", () => {
    expect(Object.values(OPAQUE_PI_REVIEWER_TRANSPORT_FAILURE)).toEqual([
      "scratch-failed",
      "launch-failed",
      "cancelled",
      "timed-out",
      "nonzero-exit",
      "empty-output",
      "cleanup-failed",
    ]);
    expect(OPAQUE_PI_REVIEWER_ARGV).toEqual(LOCKED_DOWN_PI_ARGV);
    expect(Object.isFrozen(OPAQUE_PI_REVIEWER_ARGV)).toBe(true);
  });

  it("feeds the prompt on stdin in an empty private scratch dir and returns stdout verbatim", async () => {
    const box = newSandbox({ pi: { result: { kind: "echo" } } });
    const result = await runOpaquePiReviewer(PROMPT, { piExecutable: SIM_PI, environment: box.env, timeoutMs: 0 });
    const [pi] = box.transcript();
    expect(result.stdout.equals(PROMPT)).toBe(true);
    expect([result.promptByteLength, result.stdoutByteLength]).toEqual([PROMPT.length, PROMPT.length]);
    expect(blobBytes(pi!.stdin).equals(PROMPT)).toBe(true);
    expect(pi!.argv).toEqual([...OPAQUE_PI_REVIEWER_ARGV]);
    expect(pi!.cwdListing).toEqual([]);
    expect(pi!.cwd).toMatch(new RegExp(`^${box.tmp}/gentle-pi-opaque-reviewer-[A-Za-z0-9]{6}$`));
    expect(pi!.handshake).toBeNull();
    expectNoLeftovers(box);
  });

  it("cancels before launch on an aborted signal", async () => {
    const box = newSandbox({});
    const error = await adapterFailure(
      runOpaquePiReviewer(PROMPT, { piExecutable: SIM_PI, environment: box.env, signal: AbortSignal.abort() }),
    );
    expect([error.kind, error.message, error.cancelled, error.elapsedMs]).toEqual([
      "cancelled",
      "Pi process was cancelled before launch",
      true,
      null,
    ]);
    expect(box.transcript()).toEqual([]);
    expectNoLeftovers(box);
  });

  it("reports timed-out with both timings and raw stderr bytes", async () => {
    const box = newSandbox({ faults: [{ program: "pi", fault: { kind: "hang" } }] });
    const error = await adapterFailure(
      runOpaquePiReviewer(PROMPT, { piExecutable: SIM_PI, environment: box.env, timeoutMs: 300 }),
    );
    expect([error.kind, error.message, error.timedOut, error.exitCode, error.timeoutMs]).toEqual([
      "timed-out",
      "Pi process timed out",
      true,
      null,
      300,
    ]);
    expect(error.elapsedMs).toBeGreaterThanOrEqual(300);
    expect(Buffer.isBuffer(error.stderr)).toBe(true);
    expectNoLeftovers(box);
  });

  it("reports nonzero-exit and empty-output", async () => {
    const box = newSandbox({ pi: { exitCode: 7, stderr: { base64: Buffer.from([0xff, 0x0a]).toString("base64") } } });
    const failed = await adapterFailure(runOpaquePiReviewer(PROMPT, { piExecutable: SIM_PI, environment: box.env }));
    expect([failed.kind, failed.message, failed.exitCode]).toEqual(["nonzero-exit", "Pi process failed", 7]);
    expect(failed.stderr.equals(Buffer.from([0xff, 0x0a]))).toBe(true);
    box.writeScenario({ pi: { result: { kind: "bytes", bytes: { text: "" } } } });
    const empty = await adapterFailure(runOpaquePiReviewer(PROMPT, { piExecutable: SIM_PI, environment: box.env }));
    expect([empty.kind, empty.message, empty.exitCode]).toEqual([
      "empty-output",
      "Pi process produced no output bytes",
      0,
    ]);
    expectNoLeftovers(box);
  });

  it("reports launch-failed for a missing executable", async () => {
    const box = newSandbox({});
    const error = await adapterFailure(
      runOpaquePiReviewer(PROMPT, { piExecutable: "/nonexistent/pi", environment: box.env }),
    );
    expect([error.kind, error.message]).toEqual([
      "launch-failed",
      "Pi process could not start: spawn /nonexistent/pi ENOENT",
    ]);
    expectNoLeftovers(box);
  });
});
