// The `--contract` negotiation route that runs before every negotiated verb (gentle-ai fb55ef7b
// review_operation_contract.go:440-491 `reviewIntegrationFailureRoute`/`reviewIntegrationContractArgument`), and the
// lineage_id the failure envelope carries (:1214-1319). Expected bytes are written from those facts.
import { describe, expect, it } from "vitest";
import { failureEnvelope } from "../../support/go-oracles.ts";
import { SimWorld, simWorlds } from "../../support/sim-world.ts";
import { FailureV1Schema, FailureV2Schema } from "../../../simulator/contract/failure.ts";
import { OperationV1Schema, OperationV2Schema } from "../../../simulator/contract/operation.ts";

const sim = simWorlds();
const V1 = "gentle-ai.review-integration/v1";
const V2 = "gentle-ai.review-integration/v2";

const UNSUPPORTED = "The requested review integration contract is not supported.";
const EMPTY = "The review integration contract cannot be empty.";
const INVALID = "The negotiated review request is invalid.";

/** The v1 preflight envelope of the negotiation route: no cause, next_action correct_request. */
function routeEnvelope(operation: string, code: string, message: string, lineageId?: string): string {
  return failureEnvelope(1, operation, code, message, "correct_request", undefined, lineageId);
}

async function expectRouteRefusal(
  s: SimWorld,
  argv: string[],
  operation: string,
  code: string,
  message: string,
  lineageId?: string,
): Promise<void> {
  const r = await s.invoke(argv);
  expect([r.stdoutText, r.stderrText, r.code]).toEqual([
    routeEnvelope(operation, code, message, lineageId),
    `Error: ${message} [${code}]\n`,
    1,
  ]);
}

describe("--contract negotiation route", () => {
  it("an unknown contract: unsupported_contract, failure/v1, no cause, whatever the verb's own flags", async () => {
    const s = sim();
    await expectRouteRefusal(
      s,
      ["review", "finalize", "--contract", "bogus", "--lineage", "review-ab"],
      "review.finalize",
      "unsupported_contract",
      UNSUPPORTED,
      "review-ab",
    );
    // The scan sees past positionals and `--`, where the FlagSet never would.
    await expectRouteRefusal(
      s,
      ["review", "finalize", "pos", "--contract", "x"],
      "review.finalize",
      "unsupported_contract",
      UNSUPPORTED,
    );
    await expectRouteRefusal(
      s,
      ["review", "finalize", "--", "--contract=x"],
      "review.finalize",
      "unsupported_contract",
      UNSUPPORTED,
    );
    // Even v2 spelled with a trailing space is not v2.
    await expectRouteRefusal(
      s,
      ["review", "capabilities", `--contract=${V2} `],
      "review.capabilities",
      "unsupported_contract",
      UNSUPPORTED,
    );
    // Verbs the simulator does not run are still negotiated first.
    await expectRouteRefusal(
      s,
      ["review", "start", "--contract=x", "--lineage", "a-b"],
      "review.start",
      "unsupported_contract",
      UNSUPPORTED,
      "a-b",
    );
    await expectRouteRefusal(
      s,
      ["review", "retry-final-verification", "--predecessor-lineage", "p-1", "--contract", "x"],
      "review.retry_final_verification",
      "unsupported_contract",
      UNSUPPORTED,
      "p-1",
    );
  });

  it("--contract= is empty_contract; a trailing bare --contract is a v1 invalid_request without cause", async () => {
    const s = sim();
    await expectRouteRefusal(s, ["review", "finalize", "--contract="], "review.finalize", "empty_contract", EMPTY);
    await expectRouteRefusal(
      s,
      ["review", "status", `--contract=${V2}`, "--contract="],
      "review.status",
      "empty_contract",
      EMPTY,
    );
    // The lineage scan also fails on the valueless --contract, so no lineage_id.
    await expectRouteRefusal(
      s,
      ["review", "finalize", "--lineage", "review-ab", "--contract"],
      "review.finalize",
      "invalid_request",
      INVALID,
    );
    // A later valid value clears an earlier empty one; a bare --contract that is not last takes the next token.
    const later = await s.invoke(["review", "capabilities", "--contract=", `--contract=${V1}`]);
    expect([later.code, later.stderrText]).toEqual([0, ""]);
    await expectRouteRefusal(
      s,
      ["review", "capabilities", "--contract", "--contract=x"],
      "review.capabilities",
      "unsupported_contract",
      UNSUPPORTED,
    );
  });

  it("single-dash -contract is not negotiation: the verb's FlagSet validates it on the plain route", async () => {
    const r = await sim().invoke(["review", "finalize", "-contract=x"]);
    expect([r.stdoutText, r.code]).toEqual(["", 1]);
    expect(r.stderrText).toBe(
      `Error: unsupported review integration contract "x"; retry with gentle-ai review capabilities --contract ${V1} or gentle-ai review capabilities --contract ${V2}\n`,
    );
  });

  it("collect-capture and non-registry verbs never negotiate", async () => {
    const s = sim();
    const r = await s.invoke(["review", "capture-evidence", "--contract", "x"]);
    expect(JSON.parse(r.stdoutText)).toMatchObject({
      schema: "gentle-ai.review-integration.failure/v2",
      operation: "review.capture-evidence",
      cause: "flag provided but not defined: -contract",
    });
    const u = await s.invoke(["review", "consent", "--contract", "x"]);
    expect([u.stdoutText, u.stderrText, u.code]).toEqual(["", 'Error: unknown review command "consent"\n', 1]);
  });
});

describe("lineage_id in failure envelopes", () => {
  it("contract, h and help are known flags of every operation; the shape is the registry's, not the FlagSet's", async () => {
    const s = sim();
    await expectRouteRefusal(
      s,
      ["review", "finalize", "-h=false", "--help=0", "--contract", "bad", "--lineage=review-x"],
      "review.finalize",
      "unsupported_contract",
      UNSUPPORTED,
      "review-x",
    );
    // --next-transition is a finalize FlagSet flag but not in the registry's finalize shape: the scan fails.
    await expectRouteRefusal(
      s,
      ["review", "finalize", "--next-transition", "--lineage=review-x", "--contract=bad"],
      "review.finalize",
      "unsupported_contract",
      UNSUPPORTED,
    );
    // --correction-lines is an int of the shape: Atoi accepts "+3" and refuses "0x3".
    await expectRouteRefusal(
      s,
      ["review", "finalize", "--correction-lines=+3", "--lineage=review-x", "--contract=bad"],
      "review.finalize",
      "unsupported_contract",
      UNSUPPORTED,
      "review-x",
    );
    await expectRouteRefusal(
      s,
      ["review", "finalize", "--correction-lines=0x3", "--lineage=review-x", "--contract=bad"],
      "review.finalize",
      "unsupported_contract",
      UNSUPPORTED,
    );
  });
});

describe("review dispatch (review_facade.go:635-640, :817)", () => {
  it("an unknown verb is quoted with %q", async () => {
    const r = await sim().invoke(["review", "bad\tverb\u00e9"]);
    expect([r.stdoutText, r.stderrText, r.code]).toEqual(["", 'Error: unknown review command "bad\\tverbé"\n', 1]);
  });

  it("help, -h and --help before any verb print the verb list, even with a --contract after them", async () => {
    const s = sim();
    for (const argv of [["review"], ["review", "help", "--contract", "x"], ["review", "-h"], ["review", "--help"]]) {
      const r = await s.invoke(argv);
      expect([r.stderrText, r.code]).toEqual(["", 0]);
      expect(
        r.stdoutText.startsWith(
          "Usage: gentle-ai review <capture-result|capture-refuter|capture-validation|lens-context|",
        ),
      ).toBe(true);
    }
  });
});

describe("the printed documents parse with the zod mirror", () => {
  it("failure/v1, failure/v2, operation/v1 and operation/v2", async () => {
    const s = sim({ lineage: { state: "validating" } });
    const v1 = ["review", "finalize", "--contract", "x", "--lineage", "review-ab"];
    FailureV1Schema.parse(JSON.parse((await s.invoke(v1)).stdoutText));
    FailureV1Schema.parse(JSON.parse((await s.invoke(["review", "capabilities", "-contract=x"])).stdoutText));
    FailureV2Schema.parse(
      JSON.parse((await s.invoke(["review", "finalize", "--contract", V2, "--lineage", "Bad"])).stdoutText),
    );
    FailureV2Schema.parse(JSON.parse((await s.invoke(["review", "capture-evidence", "--lineage", "a"])).stdoutText));
    // A capture operation under the v1 identity is what the mirror (like the schema) refuses.
    const capture = JSON.parse((await s.invoke(["review", "capture-evidence", "--lineage", "a"])).stdoutText) as Record<
      string,
      unknown
    >;
    expect(
      FailureV1Schema.safeParse({ ...capture, schema: "gentle-ai.review-integration.failure/v1", contract: V1 })
        .success,
    ).toBe(false);
    OperationV1Schema.parse(
      JSON.parse((await s.invoke(["review", "finalize", "--contract", V1, "--action-eligibility"])).stdoutText),
    );
    const t = sim({ lineage: { state: "validating" } });
    OperationV2Schema.parse(JSON.parse((await t.invoke(["review", "finalize", "--contract", V2])).stdoutText));
  });
});
