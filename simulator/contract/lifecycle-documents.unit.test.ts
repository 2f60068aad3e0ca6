// The zod mirrors of START's, the consent question's, VALIDATE's and review mode's documents accept what a real
// gentle-ai published (gentle-ai contracts fixtures, gentle-pi's captured devbinary fixtures) and reject mutations.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConsentV3Schema } from "./consent.ts";
import { StartDeclinedSchema, StartV3Schema } from "./start.ts";
import { UnmanagedGateResultSchema } from "./gate-result.ts";
import { ReviewModeSchema } from "./review-mode.ts";
import { OperationV1Schema, OperationV2Schema } from "./operation.ts";

const GENTLE_AI = "/work/upstream/gentle-ai/contracts/review-integration";
const GENTLE_PI = "/work/upstream/gentle-pi/tests/fixtures/devbinary";
const upstream = existsSync(GENTLE_AI) && existsSync(GENTLE_PI);

function load(path: string): Record<string, any> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, any>;
}

describe.skipIf(!upstream)("lifecycle document mirrors against published documents", () => {
  it("consent/v3 accepts the contract fixture and the captured question; rejects a swapped or unbound choice", () => {
    for (const doc of [
      load(`${GENTLE_AI}/v2/fixtures/consent-v3.fixture.json`),
      load(`${GENTLE_PI}/consent-v3.captured.json`),
    ]) {
      expect(ConsentV3Schema.safeParse(doc).success).toBe(true);
      expect(ConsentV3Schema.safeParse({ ...doc, choices: [doc.choices[1], doc.choices[0]] }).success).toBe(false);
      expect(ConsentV3Schema.safeParse({ ...doc, risk_level: "low" }).success).toBe(false);
      expect(
        ConsentV3Schema.safeParse({
          ...doc,
          choices: [{ ...doc.choices[0], invocation: "gentle-ai review start --consent granted" }, doc.choices[1]],
        }).success,
      ).toBe(false);
      const { agent: _agent, ...withoutAgent } = doc;
      expect(ConsentV3Schema.safeParse(withoutAgent).success).toBe(false);
    }
  });

  it("start/v3 accepts the contract fixture and the captured granted START; rejects a missing context", () => {
    for (const doc of [
      load(`${GENTLE_AI}/v2/fixtures/start.fixture.json`),
      load(`${GENTLE_PI}/start-v3-consent-granted.captured.json`),
    ]) {
      expect(StartV3Schema.safeParse(doc).success, JSON.stringify(StartV3Schema.safeParse(doc).error?.issues)).toBe(
        true,
      );
      if (doc.repository_context !== undefined) {
        const { repository_context: _rc, ...withoutContext } = doc;
        expect(StartV3Schema.safeParse(withoutContext).success).toBe(false);
      }
      expect(StartV3Schema.safeParse({ ...doc, correction_budget: 201 }).success).toBe(false);
      expect(StartV3Schema.safeParse({ ...doc, action: "resumed" }).success).toBe(false);
    }
  });

  it("the declined START accepts the captured decline and rejects any authority in it", () => {
    const doc = load(`${GENTLE_PI}/start-v3-consent-declined.captured.json`);
    expect(StartDeclinedSchema.safeParse(doc).success).toBe(true);
    expect(StartDeclinedSchema.safeParse({ ...doc, lineage_id: "review-0000000000000000" }).success).toBe(false);
    expect(StartDeclinedSchema.safeParse({ ...doc, selected_lenses: ["review-risk"] }).success).toBe(false);
  });
});

describe("lifecycle document mirrors", () => {
  it("the unmanaged gate result never allows and carries only its gate", () => {
    const ok = {
      schema: "gentle-ai.review-gate-result/v1",
      result: "invalidated",
      allowed: false,
      action: "repository-policy",
      reason: "x",
      context: { gate: "pre-commit" },
      delivery: "disabled/unmanaged",
    };
    expect(UnmanagedGateResultSchema.safeParse(ok).success).toBe(true);
    expect(UnmanagedGateResultSchema.safeParse({ ...ok, allowed: true }).success).toBe(false);
    expect(
      UnmanagedGateResultSchema.safeParse({ ...ok, context: { gate: "pre-commit", lineage_id: "" } }).success,
    ).toBe(false);
    // Negotiated VALIDATE wraps it in operation/v1|v2 (v1/schemas/operation.schema.json operation enum,
    // $defs/validate).
    const v2 = {
      schema: "gentle-ai.review-integration.operation/v2",
      contract: "gentle-ai.review-integration/v2",
      operation: "review.validate",
      result: ok,
    };
    expect(OperationV2Schema.safeParse(v2).success).toBe(true);
    expect(
      OperationV1Schema.safeParse({
        ...v2,
        schema: "gentle-ai.review-integration.operation/v1",
        contract: "gentle-ai.review-integration/v1",
      }).success,
    ).toBe(true);
    expect(OperationV2Schema.safeParse({ ...v2, operation: "review.finalize" }).success).toBe(false);
    expect(OperationV2Schema.safeParse({ ...v2, contract: "gentle-ai.review-integration/v1" }).success).toBe(false);
  });

  it("review mode's result: an off-only clone override", () => {
    const ok = {
      schema: "gentle-ai.review-mode/v1",
      operation: "status",
      scope: "both",
      status: {
        schema: "gentle-ai.rdd-mode-status/v1",
        global: "on",
        clone_local: "",
        effective: "on",
        source: "global",
      },
    };
    expect(ReviewModeSchema.safeParse(ok).success).toBe(true);
    expect(ReviewModeSchema.safeParse({ ...ok, status: { ...ok.status, clone_local: "on" } }).success).toBe(false);
    // gentle-ai 2.5.0 (fb55ef7b), `review mode disable --scope clone --cwd <a folder outside any repository> --json`:
    // applyReviewMode's zero status, whose source is empty.
    const zero = { schema: "gentle-ai.rdd-mode-status/v1", global: "", clone_local: "", effective: "off", source: "" };
    expect(
      ReviewModeSchema.safeParse({
        schema: "gentle-ai.review-mode/v1",
        operation: "disable",
        scope: "clone",
        status: zero,
      }).success,
    ).toBe(true);
  });
});
