import { describe, expect, it } from "vitest";
import { blobOf, orderByStart } from "../../../conformance/goldens/normalise.ts";
import {
  denormaliseBytes,
  normaliseBytes,
  normaliseText,
  placeholderRules,
} from "../../../simulator/output/path-placeholders.ts";
import type { TranscriptEntry } from "../../../simulator/output/transcript-schema.ts";

const context = {
  cwd: "/t/run-1/repo",
  tmp: "/t/run-1/tmp",
  state: "/t/run-1/state",
  gentleAi: "/t/shim/gentle-ai",
  pi: "/t/shim/pi",
};
const rules = placeholderRules(context);

describe("normalise", () => {
  it("replaces run paths and mkdtemp suffixes with stable placeholders", () => {
    expect(normaliseText("--input=/t/run-1/tmp/gentle-pi-host-relay-result-aB3dE9/result.raw", rules)).toBe(
      "--input=<TMP>/gentle-pi-host-relay-result-<X>/result.raw",
    );
    expect(normaliseText("/t/run-1/tmp/gentle-pi-opaque-reviewer-Zz09xY", rules)).toBe(
      "<TMP>/gentle-pi-opaque-reviewer-<X>",
    );
    expect(normaliseText("--cwd /t/run-1/repo --state=/t/run-1/state", rules)).toBe("--cwd <CWD> --state=<STATE>");
    expect(normaliseText("spawn /t/shim/pi ENOENT; /t/shim/gentle-ai", rules)).toBe("spawn <PI> ENOENT; <GENTLE_AI>");
    expect(normaliseText("/t/run-1/repository", rules)).toBe("<CWD>sitory");
  });

  it("works on bytes without touching non-UTF-8 content", () => {
    const raw = Buffer.concat([
      Buffer.from([0xff, 0x00, 0xc3]),
      Buffer.from(" at /t/run-1/repo\r\n"),
      Buffer.from([0x80]),
    ]);
    const out = normaliseBytes(raw, rules);
    expect(out).toEqual(
      Buffer.concat([Buffer.from([0xff, 0x00, 0xc3]), Buffer.from(" at <CWD>\r\n"), Buffer.from([0x80])]),
    );
    expect(denormaliseBytes(out, { cwd: "/other/repo", tmp: "/x" })).toEqual(
      Buffer.concat([Buffer.from([0xff, 0x00, 0xc3]), Buffer.from(" at /other/repo\r\n"), Buffer.from([0x80])]),
    );
    const untouched = Buffer.from([1, 2, 3]);
    expect(normaliseBytes(untouched, rules)).toBe(untouched);
  });

  it("keeps digest, length and content of every blob", () => {
    expect(blobOf(Buffer.from("abc"))).toEqual({
      sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      length: 3,
      base64: "YWJj",
    });
  });

  it("orders shim lines by start and marks calls made inside another call as nested", () => {
    const entry = (program: "gentle-ai" | "pi", start: number): TranscriptEntry =>
      ({ program, callIndex: start }) as TranscriptEntry;
    // Line order is end order: the role vector's pi (start 2) ends before its gentle-ai (start 1).
    const ordered = orderByStart([entry("gentle-ai", 0), entry("pi", 2), entry("gentle-ai", 1), entry("gentle-ai", 3)]);
    expect(ordered.map((o) => [o.entry.program, o.entry.callIndex, o.nested])).toEqual([
      ["gentle-ai", 0, false],
      ["gentle-ai", 1, false],
      ["pi", 2, true],
      ["gentle-ai", 3, false],
    ]);
  });
});
