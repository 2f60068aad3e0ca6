import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.ts";
import { packageRoot } from "../../../conformance/paths.ts";
import { CounterexampleSchema, COUNTEREXAMPLE_SCHEMA_ID } from "../../../conformance/clauses/counterexample-schema.ts";

const root = packageRoot();
const dir = mkdtempSync(join(tmpdir(), "rc-replay-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = join(dir, "cx.json");
writeFileSync(
  file,
  JSON.stringify(
    CounterexampleSchema.parse({
      schema: COUNTEREXAMPLE_SCHEMA_ID,
      clause: "PROP-SUBMIT-FORM-EXACT",
      property: "generated-submission-forms",
      profile: "2.4.0",
      seed: 5,
      path: "0:0",
      relay: join(root, "test/conformance/clauses/broken-relays/substitutes-every-token.ts"),
      message: "submit argv differs",
      value: {
        operationToken: "op 'x' $(y)",
        argumentTokens: ["a{{value}}", "--input={{value}}#{{value}}", "--decoy={{value}}"],
        substitutionLocation: 1,
      },
    }),
  ),
);

describe("relay-conformance replay <counterexample>", () => {
  it("re-runs a saved counterexample on its own relay: still failing, exit 1", async () => {
    const r = await cli(["replay", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^FAIL {2}PROP-SUBMIT-FORM-EXACT \(generated-submission-forms\) on 2\.4\.0: submit argv: expected /,
    );
  });

  it("--relay swaps the relay: ours passes, exit 0", async () => {
    const r = await cli(["replay", file, "--relay", "relay/index.ts"]);
    expect(r.stdout).toBe(
      `PASS  PROP-SUBMIT-FORM-EXACT (generated-submission-forms) on 2.4.0: counterexample no longer fails against ${join(root, "relay/index.ts")}\n`,
    );
    expect(r.code).toBe(0);
  });

  it("a file whose schema no replayer knows is bad input, exit 2", async () => {
    const other = join(dir, "other.json");
    writeFileSync(other, JSON.stringify({ schema: "something/v9" }));
    const r = await cli(["replay", other]);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(`relay-conformance: ${other}: no replayer for schema "something/v9"\n`)).toBe(true);
  });
});
