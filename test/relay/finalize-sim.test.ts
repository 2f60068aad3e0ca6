// The correction FINALIZE client against the simulator's correction lineage (#279 acceptance criteria 4-8).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GENTLE_PI_REVIEW_RELAY_CONTRACT } from "../../relay/index.ts";
import {
  CorrectionFinalizeError,
  buildTargetedValidationDocument,
  captureCorrectionEvidence,
  finalizeCorrection,
  queryCorrectionStatus,
  readTargetedValidationBinding,
  runCorrectionFinalize,
  type CorrectionValidationInput,
} from "../../relay/finalize.ts";
import { blobBytes, ROOT, SIM_GENTLE_AI, type Sandbox } from "../support/relay-sandbox.ts";
import { expectNoLeftovers, sandboxPerTest } from "../support/relay-lifecycle.ts";
import { rejectionOf } from "../support/rejection.ts";

const newSandbox = sandboxPerTest();

const PAYLOAD = Buffer.from("ok 1 - targeted suite\r\nok 2 - regression suite\n\u0000tail", "utf8");
const correctionScenario = (profile: string, identities: "prefixed" | "bare") => ({
  profile,
  identities,
  lineage: { state: "correction_required", correction: { stage: "evidence_required" } },
});

function setup(profile: string, identities: "prefixed" | "bare"): Sandbox {
  return newSandbox(correctionScenario(profile, identities));
}

const options = (sandbox: Sandbox) => ({
  gentleAiExecutable: SIM_GENTLE_AI,
  cwd: sandbox.repo,
  environment: sandbox.env,
});

function validationFor(status: unknown): CorrectionValidationInput {
  return {
    requestHash: readTargetedValidationBinding(status).requestHash.slice("sha256:".length),
    originalCriteria: { passed: true, evidence: ["fix verified by the targeted test"] },
    correctionRegression: { passed: true, evidence: ["no regression in the fix diff"] },
  };
}

const expectClean = expectNoLeftovers;

const verbs = (sandbox: Sandbox): (string | undefined)[] => sandbox.transcript().map((l) => l.verb);

describe("same-process capture-then-finalize (criterion 8)", () => {
  it.each([
    ["2.4.0", "prefixed"],
    ["2.4.0", "bare"],
    ["2.5.0", "prefixed"],
    ["2.3.0", "prefixed"],
    ["2.3.0", "bare"],
  ] as const)("profile %s with %s evidence identities reaches approved", async (profile, identities) => {
    const sandbox = setup(profile, identities);
    const first = await queryCorrectionStatus(options(sandbox));
    const validation = validationFor(first.status);
    const run = await runCorrectionFinalize({ ...options(sandbox), validation, evidence: { payload: PAYLOAD } });

    expect(verbs(sandbox)).toEqual(["status", "status", "capture-evidence", "status", "finalize", "status"]);
    const lines = sandbox.transcript();
    for (const line of lines) expect(line.handshake).toBe(GENTLE_PI_REVIEW_RELAY_CONTRACT);
    const capture = lines[2]!;
    const finalize = lines[4]!;
    // capture-evidence: the staged payload reached the provider byte for byte.
    expect(capture.files).toHaveLength(1);
    expect(blobBytes(capture.files[0]!).equals(PAYLOAD)).toBe(true);
    expect(capture.files[0]!.path).toMatch(
      new RegExp(`^${sandbox.tmp}/gentle-pi-correction-evidence-[A-Za-z0-9]{6}/evidence\\.txt$`),
    );
    // The record's identities are normalised whatever the provider emitted.
    const emitted = JSON.parse(blobBytes(capture.stdout).toString("utf8")) as Record<string, string>;
    expect(emitted["target_identity"]!.startsWith("sha256:")).toBe(identities === "prefixed");
    expect(run.evidence?.record.targetIdentity).toBe(
      readTargetedValidationBinding(first.status).correctionTargetIdentity,
    );
    expect(run.evidence?.record.candidateTree).toBe(emitted["candidate_tree"]);

    // FINALIZE: five-field document from STATUS, captured evidence, no raw evidence.
    const document = buildTargetedValidationDocument(readTargetedValidationBinding(first.status), validation);
    expect(finalize.files).toHaveLength(1);
    expect(blobBytes(finalize.files[0]!).equals(document)).toBe(true);
    expect(run.finalize.validationDocument.equals(document)).toBe(true);
    expect(finalize.argv).toEqual(run.finalize.argv);
    expect(finalize.argv.at(-1)).toBe("--captured-evidence=true");
    expect(finalize.argv.some((t) => /^--?evidence(=|$)/.test(t))).toBe(false);
    if (profile !== "2.3.0") {
      // The provider's descriptor, executed verbatim: only the {{value}} token changed.
      expect(finalize.argv.slice(0, 3)).toEqual(["review", "finalize", "--contract=gentle-ai.review-integration/v2"]);
      expect(finalize.argv[8]).toBe(`--validation=${finalize.files[0]!.path}`);
    } else {
      expect(finalize.argv.slice(0, 10)).toEqual([
        "review",
        "finalize",
        "--contract",
        "gentle-ai.review-integration/v2",
        "--cwd",
        sandbox.repo,
        "--lineage",
        run.evidence?.record.lineageId,
        "--validation",
        finalize.files[0]!.path,
      ]);
    }
    const after = run.status.status as { authority: { state: string }; receipt: { status: string } };
    expect([after.authority.state, after.receipt.status]).toEqual(["approved", "present"]);
    // Negotiated FINALIZE answers operation/v2: the state is in its result (review_operation_contract.go:1566-1630).
    expect(JSON.parse(run.finalize.stdout.toString("utf8"))).toMatchObject({
      schema: "gentle-ai.review-integration.operation/v2",
      result: { operation: "review/finalize", state: "approved" },
    });
    expectClean(sandbox);
  });
});

describe("fresh-process continuation (criterion 7)", () => {
  it.each([
    ["2.4.0", "bare"],
    ["2.3.0", "prefixed"],
  ] as const)(
    "profile %s (%s): a new process finalizes without recapture or actor rerun",
    async (profile, identities) => {
      const sandbox = setup(profile, identities);
      const first = await queryCorrectionStatus(options(sandbox));
      const captured = await captureCorrectionEvidence({
        ...options(sandbox),
        status: first.status,
        evidence: PAYLOAD,
      });
      const recordPath = join(sandbox.dir, "evidence-record.json");
      writeFileSync(recordPath, captured.stdout);
      const before = sandbox.transcript().length;

      const child = spawnSync(
        process.execPath,
        [
          "--import",
          "tsx",
          join(ROOT, "test/relay/fixtures/finalize-second-half.ts"),
          SIM_GENTLE_AI,
          sandbox.repo,
          recordPath,
          validationFor(first.status).requestHash,
        ],
        {
          cwd: ROOT,
          env: { ...sandbox.env, NODE_OPTIONS: "", TSX_DISABLE_CACHE: "1" },
          encoding: "utf8",
          shell: false,
        },
      );
      expect(child.stderr).toBe("");
      expect(child.status).toBe(0);
      const out = JSON.parse(child.stdout) as {
        argv: string[];
        capturedEvidence: boolean;
        status: { authority: { state: string }; receipt: { status: string } };
      };
      expect(out.capturedEvidence).toBe(true);
      expect([out.status.authority.state, out.status.receipt.status]).toEqual(["approved", "present"]);
      // The second process ran STATUS, FINALIZE, STATUS only: no capture-evidence, no pi, no role capture.
      const second = sandbox.transcript().slice(before);
      expect(second.map((l) => `${l.program}:${l.verb}`)).toEqual([
        "gentle-ai:status",
        "gentle-ai:finalize",
        "gentle-ai:status",
      ]);
      expect(second[1]!.argv).toEqual(out.argv);
      expectClean(sandbox);
    },
  );
});

describe("fail closed before launch against real STATUS", () => {
  const refused = (promise: Promise<unknown>): Promise<CorrectionFinalizeError> =>
    rejectionOf(promise, "expected a refusal", CorrectionFinalizeError);

  it("refuses captured-evidence discovery together with a raw evidence document (criterion 5)", async () => {
    const sandbox = setup("2.4.0", "prefixed");
    const first = await queryCorrectionStatus(options(sandbox));
    await captureCorrectionEvidence({ ...options(sandbox), status: first.status, evidence: PAYLOAD });
    const ready = await queryCorrectionStatus(options(sandbox));
    const count = sandbox.transcript().length;
    const error = await refused(
      finalizeCorrection({
        ...options(sandbox),
        status: ready.status,
        validation: validationFor(ready.status),
        evidenceDocument: PAYLOAD,
      }),
    );
    expect([error.code, error.stage, error.mutationOutcome]).toEqual([
      "correction-evidence-source-conflict",
      "preflight",
      "none",
    ]);
    expect(sandbox.transcript()).toHaveLength(count);
    expectClean(sandbox);
  });

  it("refuses a captured record that drifted from the provider binding", async () => {
    const sandbox = setup("2.4.0", "bare");
    const first = await queryCorrectionStatus(options(sandbox));
    const captured = await captureCorrectionEvidence({ ...options(sandbox), status: first.status, evidence: PAYLOAD });
    const ready = await queryCorrectionStatus(options(sandbox));
    const count = sandbox.transcript().length;
    const drifted = { ...JSON.parse(captured.stdout.toString("utf8")), paths_digest: "0".repeat(64) };
    const error = await refused(
      finalizeCorrection({
        ...options(sandbox),
        status: ready.status,
        validation: validationFor(ready.status),
        evidenceRecord: Buffer.from(JSON.stringify(drifted)),
      }),
    );
    expect([error.code, error.message]).toEqual([
      "correction-evidence-binding-drift",
      "captured correction evidence does not match the requested lineage, target, and outcome",
    ]);
    expect(sandbox.transcript()).toHaveLength(count);
    expectClean(sandbox);
  });

  it("surfaces a provider FINALIZE refusal typed, with its envelope cause and not_started as none", async () => {
    const sandbox = setup("2.4.0", "prefixed");
    const first = await queryCorrectionStatus(options(sandbox));
    await captureCorrectionEvidence({ ...options(sandbox), status: first.status, evidence: PAYLOAD });
    const ready = await queryCorrectionStatus(options(sandbox));
    const validation = { ...validationFor(ready.status), originalCriteria: { passed: true, evidence: [] } };
    const error = await refused(finalizeCorrection({ ...options(sandbox), status: ready.status, validation }));
    expect([error.code, error.stage, error.exitCode, error.mutationOutcome]).toEqual([
      "correction-finalize-failed",
      "finalize",
      1,
      "none",
    ]);
    expect(error.stderr).toBe("Error: The negotiated review request is invalid. [invalid_request]\n");
    expect(error.providerCause).toBe(
      "targeted validation requires original_criteria and correction_regression evidence",
    );
    const after = await queryCorrectionStatus(options(sandbox));
    expect((after.status as { authority: { state: string } }).authority.state).toBe("correction_required");
    expectClean(sandbox);
  });
});
