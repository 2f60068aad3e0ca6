// The shipped golden/scenarios/correction-*.json files behave as their descriptions say.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HANDSHAKE, V2 } from "../../support/contract.ts";
import { evidenceTokens, statusOf, validationDoc } from "../../support/correction-oracles.ts";
import { BIN_DIR, ROOT, SimWorld } from "../../support/sim-world.ts";

const sims: SimWorld[] = [];
function golden(name: string): SimWorld {
  const s = new SimWorld({ scenario: JSON.parse(readFileSync(join(ROOT, "golden/scenarios", name), "utf8")) });
  sims.push(s);
  return s;
}
afterAll(() => sims.forEach((s) => s.cleanup()));

const D1 = "targeted validation result does not bind the provider-owned correction request";
const D2 = "compact correction acceptance requires captured repository verification evidence";

describe("golden correction scenarios", () => {
  it("correction-279-source-faithful: D2, then D1, then approved", async () => {
    const s = golden("correction-279-source-faithful.json");
    const base = ["review", "finalize", "--contract", V2, "--cwd", s.dir, "--lineage", s.ids.lineageId];
    const v3 = s.file("v3.json", validationDoc(s, { fields: 3 }));
    const d2 = await s.run([...base, "--validation", v3, "--evidence", s.file("e.txt", "ok\n")]);
    expect(JSON.parse(d2.stdoutText).cause).toBe(D2);
    const d1 = await s.run([...base, "--validation", v3, "--captured-evidence=true"]);
    expect(JSON.parse(d1.stdoutText).cause).toBe(D1);
    const ok = await s.run([...base, "--validation", s.file("v5.json", validationDoc(s)), "--captured-evidence=true"]);
    expect([ok.code, ok.stderrText, JSON.parse(ok.stdoutText).result.state]).toEqual([0, "", "approved"]);
  });

  it("correction-279-as-reported: capture-evidence emits bare evidence identities, STATUS stays prefixed", async () => {
    const s = golden("correction-279-as-reported.json");
    const r = await s.run([
      "review",
      "capture-evidence",
      "--cwd",
      s.dir,
      ...evidenceTokens(s, { context: false }),
      "--outcome=passed",
      `--input=${s.file("e.txt", "ok\n")}`,
    ]);
    const rec = JSON.parse(r.stdoutText) as Record<string, string>;
    for (const k of ["authority_revision", "target_identity", "paths_digest", "raw_payload_sha256"])
      expect(rec[k]).toMatch(/^[0-9a-f]{64}$/);
    expect(rec.record_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const st = statusOf((await s.run(["review", "status", "--contract", V2, "--next-transition"])).stdoutText);
    expect(st.validation_request?.correction_target_identity).toBe(s.ids.correctionTargetIdentity);
  });

  it("correction-validator-pi-fails: the validator vector fails with pi's stderr", async () => {
    const s = golden("correction-validator-pi-fails.json");
    const st = statusOf(
      (await s.run(["review", "status", "--contract", V2, "--agent", "pi", "--next-transition"], { env: HANDSHAKE }))
        .stdoutText,
    );
    const tokens = (
      st.next_transition.collect as { inputs: { arguments: { token: string }[] }[] }
    ).inputs[0]!.arguments.map((a) => a.token);
    const r = await s.run(["review", "capture-validation", ...tokens], {
      env: { ...HANDSHAKE, PATH: `${BIN_DIR}:${process.env["PATH"] ?? ""}` },
    });
    expect(r.stderrText).toBe(
      "Error: invoke provider targeted validator: pi reviewer transport failed: exit status 3: model quota exhausted [invalid_request]\n",
    );
  });

  it("correction-plan-required: the forecast submission stops at corrected_candidate_unavailable", async () => {
    const s = golden("correction-plan-required.json");
    const st = statusOf((await s.run(["review", "status", "--contract", V2, "--next-transition"])).stdoutText);
    const sub = (st.next_transition.collect as { inputs: { submission: { argument_tokens: string[] } }[] }).inputs[0]!
      .submission;
    const r = await s.run(["review", "finalize", ...sub.argument_tokens.map((t) => t.replace("{{value}}", "1"))]);
    expect([r.code, r.stderrText]).toEqual([0, ""]);
    const after = statusOf((await s.run(["review", "status", "--contract", V2, "--next-transition"])).stdoutText);
    expect(after.next_transition.reason_code).toBe("corrected_candidate_unavailable");
  });
});
