import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOCKED_DOWN_PI_ARGV } from "../../support/contract.ts";
import { promptFor } from "../../support/prompt-oracle.ts";
import { runSim, SimWorld } from "../../support/sim-world.ts";
import { parsePromptBinding } from "../../../simulator/pi/reviewer-result.ts";
import { admitReviewerResult } from "../../../simulator/gentle-ai/verbs/capture-result/admission.ts";
import { ReviewerResultSchema } from "../../../simulator/contract/reviewer-result.ts";

const PI_ARGV = LOCKED_DOWN_PI_ARGV;
const SUBJECT = `sha256:${"b".repeat(64)}`;
const PROMPT = promptFor(SUBJECT, "review-reliability", ["internal/review.go", "docs/a b.md"]);
const SCOPE = "inspected all 2 changed paths of the frozen candidate through the review-reliability lens";
const RESULT = `{"subject_hash":"${SUBJECT}","inspection":{"status":"completed","paths":["internal/review.go","docs/a b.md"]},"lens":"review-reliability","findings":[],"evidence":["${SCOPE}; no defect found"]}\n`;
// The slot the prompt binds, as gentle-ai's admission sees it.
const SLOT = {
  lens: "review-reliability",
  subjectHash: SUBJECT,
  manifest: [
    {
      path: "internal/review.go",
      status: "M" as const,
      additions: 2,
      deletions: 1,
      oldMode: "100644",
      newMode: "100644",
    },
    { path: "docs/a b.md", status: "M" as const, additions: 1, deletions: 1, oldMode: "100644", newMode: "100644" },
  ],
};

let world: SimWorld;
afterEach(() => world?.cleanup());

async function pi(scenario: unknown, input: Buffer = PROMPT, cwd?: string) {
  world = new SimWorld();
  const env = world.env(scenario === undefined ? {} : { GENTLE_AI_SIM_SCENARIO: world.writeScenario(scenario) });
  return runSim("pi", PI_ARGV, { env, input, ...(cwd ? { cwd } : {}) });
}

describe("fake pi result kinds", () => {
  it("default scenario: a reviewer result bound to the prompt's subject hash, lens and changed paths, which gentle-ai admits", async () => {
    const r = await pi(undefined);
    expect([r.stdout.toString(), r.stderr.toString(), r.code]).toEqual([RESULT, "", 0]);
    ReviewerResultSchema.parse(JSON.parse(RESULT));
    expect(admitReviewerResult(r.stdout, SLOT).result.evidence).toEqual([`${SCOPE}; no defect found`]);
  });

  it("reviewer-result with a suggestion finding", async () => {
    const r = await pi({ pi: { result: { kind: "reviewer-result", findings: "suggestion" } } });
    expect(r.stdout.toString()).toBe(
      `{"subject_hash":"${SUBJECT}","inspection":{"status":"completed","paths":["internal/review.go","docs/a b.md"]},"lens":"review-reliability",` +
        `"findings":[{"id":"R3-001","lens":"review-reliability","location":"internal/review.go:1","severity":"SUGGESTION","claim":"Simulated reviewer suggestion.","proof_refs":["internal/review.go:1"]}],` +
        `"evidence":["${SCOPE}; one suggestion at internal/review.go:1"]}\n`,
    );
    ReviewerResultSchema.parse(JSON.parse(r.stdout.toString()));
    expect(admitReviewerResult(r.stdout, SLOT).result.findings.map((f) => [f.id, f.lens, f.severity])).toEqual([
      ["R3-001", "reliability", "SUGGESTION"],
    ]);
  });

  it("cites a changed path with spaces in backticks, so gentle-ai resolves it", async () => {
    const prompt = promptFor(SUBJECT, "review-reliability", ["docs/a b.md", "internal/review.go"]);
    const r = await pi({ pi: { result: { kind: "reviewer-result", findings: "suggestion" } } }, prompt);
    const doc = JSON.parse(r.stdout.toString()) as { findings: { proof_refs: string[] }[]; evidence: string[] };
    expect(doc.findings[0]!.proof_refs).toEqual(["`docs/a b.md:1`"]);
    expect(admitReviewerResult(r.stdout, SLOT).result.evidence).toEqual([
      "inspected all 2 changed paths of the frozen candidate through the review-reliability lens; one suggestion at `docs/a b.md:1`",
    ]);
  });

  it("reviewer-result for a prompt without a binding line stays unbound (empty subject hash, no lens)", async () => {
    const r = await pi(undefined, Buffer.from("just some text\n"));
    expect(r.stdout.toString()).toBe(
      '{"subject_hash":"","inspection":{"status":"completed","paths":[]},"findings":[],"evidence":["inspected all 0 changed paths of the frozen candidate through the selected lens; no defect found"]}\n',
    );
  });

  it.each([
    [{ text: "héllo\r\n" }, Buffer.from("héllo\r\n")],
    [{ base64: "AP8NCg==" }, Buffer.from([0x00, 0xff, 0x0d, 0x0a])],
  ])("bytes %j", async (bytes, expected) => {
    const r = await pi({ pi: { result: { kind: "bytes", bytes } } });
    expect([r.stdout, r.code]).toEqual([expected, 0]);
  });

  it("bytes from a file next to the scenario", async () => {
    world = new SimWorld();
    world.file("answer.bin", Buffer.from([1, 2, 3, 0]));
    const env = world.env({
      GENTLE_AI_SIM_SCENARIO: world.writeScenario({ pi: { result: { kind: "bytes", bytes: { file: "answer.bin" } } } }),
    });
    const r = await runSim("pi", PI_ARGV, { env, input: PROMPT });
    expect(r.stdout).toEqual(Buffer.from([1, 2, 3, 0]));
  });

  it("echo: the prompt bytes back, binary safe", async () => {
    const input = Buffer.from([0x00, 0xc3, 0x28, 0x0d, 0x0a, 0xff]);
    const r = await pi({ pi: { result: { kind: "echo" } } }, input);
    expect(r.stdout).toEqual(input);
  });

  it.each([
    ["prefix-bom", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(RESULT)])],
    ["append-crlf", Buffer.from(`${RESULT}\r\n`)],
    ["upper", Buffer.from(RESULT.toUpperCase())],
    ["reverse", Buffer.from([...Buffer.from(RESULT)].reverse())],
  ] as const)("transform %s of the reviewer result", async (transform, expected) => {
    const r = await pi({ pi: { result: { kind: "transform", transform } } });
    expect(r.stdout).toEqual(expected);
  });

  it("transform of the prompt", async () => {
    const r = await pi(
      { pi: { result: { kind: "transform", transform: "reverse", of: "prompt" } } },
      Buffer.from([1, 2, 0xff]),
    );
    expect(r.stdout).toEqual(Buffer.from([0xff, 2, 1]));
  });

  it("scripted stderr and exit code", async () => {
    const r = await pi({
      pi: { result: { kind: "bytes", bytes: { text: "" } }, stderr: { text: "model error\n" }, exitCode: 3 },
    });
    expect([r.stdout.length, r.stderr.toString(), r.code]).toEqual([0, "model error\n", 3]);
  });
});

describe("fake pi transcript", () => {
  it("records argv, cwd and the sorted names in its cwd at start", async () => {
    world = new SimWorld();
    const scratch = join(world.ensure(), "scratch");
    mkdirSync(join(scratch, "sub"), { recursive: true });
    writeFileSync(join(scratch, "b.txt"), "");
    writeFileSync(join(scratch, ".hidden"), "");
    const r = await runSim("pi", PI_ARGV, { env: world.env(), input: PROMPT, cwd: scratch });
    expect(r.code).toBe(0);
    const [e] = world.entries();
    expect(e).toMatchObject({
      program: "pi",
      argv: PI_ARGV,
      cwd: scratch,
      cwdListing: [".hidden", "b.txt", "sub"],
      callIndex: 1,
    });
    expect(e!.verb).toBeUndefined();
    expect(e!.leg).toBeUndefined();
  });

  it("an empty scratch directory lists as []", async () => {
    world = new SimWorld();
    const scratch = join(world.ensure(), "empty");
    mkdirSync(scratch);
    await runSim("pi", PI_ARGV, { env: world.env(), input: PROMPT, cwd: scratch });
    expect(world.entries()[0]!.cwdListing).toEqual([]);
  });
});

describe("parsePromptBinding", () => {
  it("takes the last tab field of name-status lines (renames) and tolerates CRLF", () => {
    const prompt = Buffer.from(
      `GENTLE_AI_REVIEW_BINDING {"lens":"review-risk","subject_hash":"sha256:x"}\r\nGENTLE_AI_REVIEW_NAME_STATUS\r\nR087\told.go\tnew.go\r\nD\tgone.go\r\n\r\nGENTLE_AI_REVIEW_NAME_STATUS_END\r\nM\tafter.go\n`,
    );
    expect(parsePromptBinding(prompt)).toEqual({
      subjectHash: "sha256:x",
      lens: "review-risk",
      paths: ["new.go", "gone.go"],
    });
  });
});
