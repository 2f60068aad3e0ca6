import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { comparePhase, firstDifference } from "../../../conformance/diff/compare.ts";
import { normaliseCalls, OrdinalNames, type WorldPaths } from "../../../conformance/diff/normalise.ts";
import type { TranscriptEntry } from "../../../simulator/output/transcript-schema.ts";

const PATHS: WorldPaths = { root: "/w", work: "/w/work", home: "/w/home", tmp: "/w/tmp", state: "/w/state" };

function blob(text: string): TranscriptEntry["stdout"] {
  const bytes = Buffer.from(text, "utf8");
  return { sha256: createHash("sha256").update(bytes).digest("hex"), length: bytes.length, base64: bytes.toString("base64") };
}

function entry(argv: string[], stdout: string, code = 0): TranscriptEntry {
  return {
    schema: "gentle-relay-conformance.transcript/v1",
    program: "gentle-ai",
    pid: 1,
    argv,
    cwd: PATHS.work,
    handshake: null,
    callIndex: 0,
    faults: [],
    stdin: blob(""),
    files: [],
    stdout: blob(stdout),
    stderr: blob(""),
    exit: { code, signal: null, completed: true },
    timing: { startedAt: "2026-01-01T00:00:00.000Z", durationMs: 1 },
  };
}

const A = "a".repeat(64);
const B = "b".repeat(64);

describe("the differential run's normalisation", () => {
  it("renames hashes to ordinals by first appearance, so equality structure survives and values do not", () => {
    const one = normaliseCalls([entry(["review", "status", `--target=sha256:${A}`], `{"lineage_id": "review-${A.slice(0, 16)}", "t": "${A}"}`)], PATHS, new OrdinalNames());
    const two = normaliseCalls([entry(["review", "status", `--target=sha256:${B}`], `{"lineage_id": "review-${B.slice(0, 16)}", "t": "${B}"}`)], PATHS, new OrdinalNames());
    expect(one[0]!.argv).toEqual(["review", "status", "--target=sha256:<H1>"]);
    expect(one[0]!.stdout.toString()).toBe('{"lineage_id": "review-<H2>", "t": "<H1>"}');
    expect(comparePhase(1, one, two)).toEqual([]);
    // Two distinct values where the other side has one: a divergence.
    const three = normaliseCalls([entry(["review", "status", `--target=sha256:${A}`], `{"lineage_id": "review-${B.slice(0, 16)}", "t": "${B}"}`)], PATHS, new OrdinalNames());
    expect(comparePhase(1, one, three).map((d) => [d.field, d.offset])).toEqual([["stdout", 38]]);
  });

  it("replaces world paths and masks timestamps, the build block, the executable digest and defect-report names", () => {
    const out = [
      '"build": {\n    "id": "sha256:0",\n    "go_version": "go1.26.8"\n  },',
      `"executable": {\n    "sha256": "sha256:${A}",`,
      "see /w/work/.git/gentle-ai/defect-reports/capture-result-0123456789ab.md at 2026-12-04T22:32:05.123Z in /w/home/x and /w/tmp/y",
    ].join("\n");
    const [call] = normaliseCalls([entry(["review"], out)], PATHS, new OrdinalNames());
    expect(call!.stdout.toString()).toBe(
      [
        '"build": {<BUILD>},',
        '"executable": {\n    "sha256": "<EXECUTABLE>",',
        "see <CWD>/.git/gentle-ai/defect-reports/capture-result-<DEFECT>.md at <TIME> in <HOME>/x and <TMP>/y",
      ].join("\n"),
    );
  });

  it("reports every divergent call, the first differing byte, and an extra call closing the list", () => {
    const names = (): OrdinalNames => new OrdinalNames();
    const bin = normaliseCalls([entry(["version"], "gentle-ai 2.4.0\n"), entry(["review", "x"], "", 2), entry(["review"], "usage\n")], PATHS, names());
    const sim = normaliseCalls([entry(["version"], "gentle-ai 2.4.0\n"), entry(["review", "x"], "", 1)], PATHS, names());
    const found = comparePhase(3, bin, sim);
    expect(found.map((d) => [d.phase, d.index, d.field, d.offset, d.binary, d.simulator])).toEqual([
      [3, 2, "exit", 5, { text: "exit 2" }, { text: "exit 1" }],
      [3, 3, "calls", 0, { text: "3 calls" }, { text: "2 calls" }],
    ]);
    expect(firstDifference(Buffer.from("abc"), Buffer.from("abd"))).toBe(2);
    expect(firstDifference(Buffer.from("ab"), Buffer.from("abc"))).toBe(2);
    expect(firstDifference(Buffer.from("ab"), Buffer.from("ab"))).toBeUndefined();
  });
});
