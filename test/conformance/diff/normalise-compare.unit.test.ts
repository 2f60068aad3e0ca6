import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { comparePhase, firstDifference } from "../../../conformance/diff/compare.ts";
import { normaliseCalls, type WorldPaths } from "../../../conformance/diff/normalise.ts";
import { HashPairing } from "../../../conformance/diff/pairing.ts";
import type { TranscriptEntry } from "../../../simulator/output/transcript-schema.ts";

const PATHS: WorldPaths = { root: "/w", work: "/w/work", home: "/w/home", tmp: "/w/tmp", state: "/w/state" };

function blob(text: string): TranscriptEntry["stdout"] {
  const bytes = Buffer.from(text, "utf8");
  return {
    sha256: createHash("sha256").update(bytes).digest("hex"),
    length: bytes.length,
    base64: bytes.toString("base64"),
  };
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

describe("the differential run's normalisation and hash pairing", () => {
  it("pairs hashes by structure: values may differ, equality structure may not", () => {
    const one = normaliseCalls(
      [entry(["review", "status", `--target=sha256:${A}`], `{"lineage_id": "review-${A.slice(0, 16)}", "t": "${A}"}`)],
      PATHS,
    );
    const two = normaliseCalls(
      [entry(["review", "status", `--target=sha256:${B}`], `{"lineage_id": "review-${B.slice(0, 16)}", "t": "${B}"}`)],
      PATHS,
    );
    expect(comparePhase(1, one, two, new HashPairing())).toEqual([]);
    // Where the binary repeats one hash, the simulator prints two: a divergence at the second.
    const three = normaliseCalls(
      [entry(["review", "status", `--target=sha256:${B}`], `{"lineage_id": "review-${A.slice(0, 16)}", "t": "${A}"}`)],
      PATHS,
    );
    const found = comparePhase(1, one, three, new HashPairing());
    expect(found.map((d) => [d.field, d.offset, d.binary, d.simulator])).toEqual([
      [
        "stdout",
        37,
        { text: '{"lineage_id": "review-<H2>", "t": "<H1>"}' },
        { text: '{"lineage_id": "review-<H2>", "t": "<S1>"}' },
      ],
    ]);
    expect(found[0]!.call.argv).toEqual(["review", "status", "--target=sha256:<H1>"]);
  });

  it("an extra hash on one side renumbers nothing after it", () => {
    const C = "c".repeat(64);
    const bin = normaliseCalls([entry(["a"], `{"x": "${A}"}`), entry(["b"], `{"y": "${C}"}`)], PATHS);
    const sim = normaliseCalls(
      [entry(["a"], `{"x": "${A}", "event_id": "${B}"}`), entry(["b"], `{"y": "${C}"}`)],
      PATHS,
    );
    expect(comparePhase(1, bin, sim, new HashPairing()).map((d) => [d.index, d.field])).toEqual([[1, "stdout"]]);
  });

  it("replaces world paths and masks timestamps, the build block, the executable digest and defect-report names", () => {
    const out = [
      '"build": {\n    "id": "sha256:0",\n    "go_version": "go1.26.8"\n  },',
      `"executable": {\n    "sha256": "sha256:${A}",`,
      "see /w/work/.git/gentle-ai/defect-reports/capture-result-0123456789ab.md at 2026-12-04T22:32:05.123Z in /w/home/x and /w/tmp/y",
    ].join("\n");
    const [call] = normaliseCalls([entry(["review"], out)], PATHS);
    expect(call!.stdout.toString()).toBe(
      [
        '"build": {<BUILD>},',
        '"executable": {\n    "sha256": "<EXECUTABLE>",',
        "see <CWD>/.git/gentle-ai/defect-reports/capture-result-<DEFECT>.md at <TIME> in <HOME>/x and <TMP>/y",
      ].join("\n"),
    );
  });

  it("reports every divergent call, the first differing byte, and an extra call closing the list", () => {
    const bin = normaliseCalls(
      [entry(["version"], "gentle-ai 2.4.0\n"), entry(["review", "x"], "", 2), entry(["review"], "usage\n")],
      PATHS,
    );
    const sim = normaliseCalls([entry(["version"], "gentle-ai 2.4.0\n"), entry(["review", "x"], "", 1)], PATHS);
    const found = comparePhase(3, bin, sim, new HashPairing());
    expect(found.map((d) => [d.phase, d.index, d.field, d.offset, d.binary, d.simulator])).toEqual([
      [3, 2, "exit", 5, { text: "exit 2" }, { text: "exit 1" }],
      [3, 3, "calls", 0, { text: "3 calls" }, { text: "2 calls" }],
    ]);
    expect(firstDifference(Buffer.from("abc"), Buffer.from("abd"))).toBe(2);
    expect(firstDifference(Buffer.from("ab"), Buffer.from("abc"))).toBe(2);
    expect(firstDifference(Buffer.from("ab"), Buffer.from("ab"))).toBeUndefined();
  });
});
