import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shippedFiles } from "../../../conformance/repro/catalogue.ts";
import { ReproductionSchema } from "../../../conformance/repro/format.ts";
import { parseReproduction, parseReproductionFile, ReproParseError } from "../../../conformance/repro/parse.ts";
import { expandWord, splitWords, UnsetVariableError, WordError } from "../../../conformance/repro/words.ts";
import { describeWorld } from "../../../conformance/repro/world.ts";

const HEAD = "title t\n-- s.json --\n{}\n";

function problems(text: string): string {
  try {
    parseReproduction(text, "x/r.txtar");
  } catch (e) {
    if (e instanceof ReproParseError) return e.message;
    throw e;
  }
  throw new Error("parsed");
}

describe("words", () => {
  it("splits on blanks; single quotes keep text literal and '' is one quote", () => {
    expect(splitWords(`expect  message='a b''c' x~'\\d+$'\tlast`)).toEqual([
      "expect",
      "message=a b'c",
      "x~\\d+$$",
      "last",
    ]);
    expect(splitWords("''")).toEqual([""]);
    expect(() => splitWords("stdout 'open")).toThrow(WordError);
  });
  it("expands $NAME and ${NAME}, keeps quoted dollars and lone $ literal, refuses unset names", () => {
    expect(expandWord("--cwd=$WORK/${SUB}x $$ a$", { WORK: "/w", SUB: "s" })).toBe("--cwd=/w/sx $ a$");
    expect(() => expandWord("$NOPE", {})).toThrow(UnsetVariableError);
  });
});

describe("parser", () => {
  it("parses every shipped reproduction into the published schema", () => {
    const ids = shippedFiles().map((f) => {
      const r = parseReproductionFile(f);
      expect(ReproductionSchema.safeParse(r).success).toBe(true);
      return r.id;
    });
    expect(ids).toEqual(["279", "367", "522", "handshake", "old-binary"]);
  });

  it("keeps the quoted report, phases, scenario overrides, step options and assertions", () => {
    const r = parseReproductionFile(shippedFiles()[0] as string);
    expect(r.summary[0]).toBe(
      "gentle-pi #279: bug(review): correction FINALIZE cannot bind its provider-owned targeted validation",
    );
    expect(r.phases).toHaveLength(10);
    const p1 = r.phases[0]!;
    expect(p1.scenario!.source).toEqual({ section: "correction.json" });
    expect(p1.scenario!.overrides).toEqual({ identities: "bare" });
    expect(p1.scenario!.resolved["identities"]).toBe("bare");
    const finalize = p1.steps[2]!;
    expect(finalize).toMatchObject({
      line: 34,
      command: "finalize",
      options: { client: "gentle-pi-2.1.2", defects: "D1,D2,D3", validation: "validation.json" },
    });
    expect(finalize.assertions[0]).toEqual({
      kind: "expect",
      line: 35,
      checks: [
        { key: "name", op: "=", value: "CandidateViewError" },
        { key: "code", op: "=", value: "correction-evidence-binding-drift" },
      ],
    });
    expect(finalize.assertions[2]).toEqual({
      kind: "calls",
      line: 37,
      scope: "step",
      checks: [{ key: "finalize", op: "=", value: "0" }],
    });
  });

  it("names file, line and reason for every problem", () => {
    expect(problems(`${"title t\nscenario s.json\nfrobnicate x\n"}-- s.json --\n{}\n`)).toBe(
      'x/r.txtar:3: unknown command "frobnicate"',
    );
    expect(problems("title t\nscenario s.json\nexpect ok\n-- s.json --\n{}\n")).toBe(
      "x/r.txtar:3: expect must follow a step line",
    );
    expect(problems("title t\nscenario s.json\nstatus\nstdout '('\n-- s.json --\n{}\n")).toMatch(
      /^x\/r\.txtar:4: stdout: bad regex: /,
    );
    expect(problems("title t\nscenario s.json\nrelay slot=x\n-- s.json --\n{}\n")).toBe(
      "x/r.txtar:3: relay: slot: must be a non-negative integer",
    );
    expect(problems("title t\nscenario s.json\nfinalize validation=missing.json\n-- s.json --\n{}\n")).toBe(
      'x/r.txtar:3: finalize: validation: no section "-- missing.json --" in this file',
    );
    expect(problems("title t\nscenario s.json\nfinalize defects=D4\n-- s.json --\n{}\n")).toBe(
      'x/r.txtar:3: finalize: defects: must be "none" or a list of D1, D2, D3',
    );
    expect(problems("title t\nscenario s.json profile=1.0\nstatus\n-- s.json --\n{}\n")).toMatch(
      /^x\/r\.txtar:2: scenario s\.json: \$\.profile: /,
    );
    expect(problems("title t\nscenario s.json\nstatus\nexpect message='open\n-- s.json --\n{}\n")).toBe(
      "x/r.txtar:4: unterminated single quote",
    );
    expect(problems("scenario s.json\nstatus\n-- s.json --\n{}\n")).toBe("x/r.txtar:1: missing `title` line");
    expect(problems(`${HEAD}`)).toBe("x/r.txtar:1: no steps");
    expect(problems("title t\nscenario s.json\nstatus\ncmp stdout nope\n-- s.json --\n{}\n")).toBe(
      'x/r.txtar:4: no section "-- nope --" in this file',
    );
    expect(problems("title t\nscenario nope.json\nstatus\n")).toMatch(
      /^x\/r\.txtar:2: scenario nope\.json: not a section of this file and not readable: /,
    );
    expect(problems("title t\nscenario s.json\nexec git status\n-- s.json --\n{}\n")).toBe(
      'x/r.txtar:3: exec runs "gentle-ai" or "pi", not "git"',
    );
  });

  it("reports several problems at once, one line each", () => {
    expect(problems("title t\nscenario s.json\nstatus\nexit x\nbogus\n-- s.json --\n{}\n")).toBe(
      'x/r.txtar:4: exit takes one exit code\nx/r.txtar:5: unknown command "bogus"',
    );
  });

  it("a new report is a file: a minimal one parses with defaults", () => {
    const r = parseReproduction(
      '# quoted report\ntitle a new report\nscenario s.json\nstatus\nexpect ok\n-- s.json --\n{"profile":"2.4.0"}\n',
      "golden/repro/999.txtar",
    );
    expect(r).toMatchObject({
      id: "999",
      title: "a new report",
      summary: ["quoted report"],
      phases: [{ title: "a new report", steps: [{ command: "status" }] }],
    });
  });
});

describe("scenario paths and stdin", () => {
  it("a scenario may be a JSON file beside the reproduction; stdin attaches a section to the next exec", () => {
    const dir = mkdtempSync(join(tmpdir(), "repro-parse-"));
    try {
      writeFileSync(join(dir, "s.json"), '{"profile":"2.5.0"}');
      writeFileSync(
        join(dir, "r.txtar"),
        "title t\nscenario s.json identities=bare\nstdin in.txt\nexec gentle-ai review capture-result --input -\n! exit\n-- in.txt --\n{}\n",
      );
      const r = parseReproductionFile(join(dir, "r.txtar"));
      expect(r.phases[0]!.scenario).toEqual({
        line: 2,
        source: { path: "s.json" },
        overrides: { identities: "bare" },
        resolved: { profile: "2.5.0", identities: "bare" },
      });
      expect(r.phases[0]!.steps[0]).toEqual({
        line: 4,
        command: "exec",
        args: ["gentle-ai", "review", "capture-result", "--input", "-"],
        options: {},
        stdin: "in.txt",
        assertions: [{ kind: "exit", line: 5, code: "nonzero" }],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("describeWorld", () => {
  it("names the profile the run chose over the phase's own, and the phase's own otherwise", () => {
    const repro = parseReproduction(
      "title t\nprofile 2.4.0\nrepo\ngentle-ai version\n-- repo/a --\nx\n-- work/b --\ny\n",
      "x/w.txtar",
    );
    const phase = repro.phases[0]!;
    expect(describeWorld(phase)).toBe("repo (1 committed, 1 changed) (profile 2.4.0, identities prefixed)");
    expect(describeWorld(phase, "2.5.0")).toBe("repo (1 committed, 1 changed) (profile 2.5.0, identities prefixed)");
  });
});
