// `relay-conformance mutate` end to end on a small relay written here: known kills, a known survivor and a known
// no-coverage mutant, the report valid against mutation-testing-report-schema, the HTML page self-contained, --since
// restricted to changed lines, --break's exit code, and a relay whose catalogue fails is refused (exit 2).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, describe, expect, it } from "vitest";
import { cli, type CliRun } from "../../support/cli.ts";
import { reportJsonSchema } from "../../../conformance/mutate/report.ts";

const dir = mkdtempSync(join(tmpdir(), "mutate-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Only API-ADMISSION-REFUSAL is run (--grep): it probes isReviewHostRelayAdmissionRefusal with a table.
const RELAY = `export async function runReviewHostRelaySlot(): Promise<never> {
  throw new Error("not used by the selected clause");
}

export function isReviewHostRelayAdmissionRefusal(capture: { exitCode: number | null; timedOut: boolean }, stderr: string): boolean {
  const label = "admission";
  void label;
  return capture.exitCode === 1 && !capture.timedOut && /\\[invalid_request\\]/.test(stderr);
}

export function neverCalled(n: number): number {
  return n + 1;
}

export function markedEquivalent(flag: boolean): boolean {
  // Stryker disable next-line BooleanLiteral: the test marks it equivalent
  return !flag;
}
`;

function mutate(args: string[], cwd = dir): Promise<CliRun> {
  return cli(["mutate", "--grep", "^API-ADMISSION-REFUSAL$", "--seed", "1", "--quiet", ...args], { cwd });
}

interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement: string;
  status: string;
  killedBy?: string[];
  statusReason?: string;
  duration?: number;
  location: { start: { line: number; column: number } };
}

function mutants(file: string): ReportMutant[] {
  const report = JSON.parse(readFileSync(file, "utf8")) as { files: Record<string, { mutants: ReportMutant[] }> };
  return Object.values(report.files).flatMap((f) => f.mutants);
}

describe("relay-conformance mutate", () => {
  const relayDir = join(dir, "lib");
  mkdirSync(relayDir);
  writeFileSync(join(relayDir, "relay.ts"), RELAY);

  it("scores the relay: kills, the survivor, the uncovered function, a valid report and an offline HTML page", async () => {
    const r = await mutate(["--relay", "lib/relay.ts", "--json", "report.json", "--html", "report.html"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as Record<string, unknown>;
    const ajv = new Ajv({ allErrors: true, strict: false, formats: { uri: true } });
    expect(ajv.validate(reportJsonSchema(), report), ajv.errorsText(ajv.errors)).toBe(true);
    expect(Object.keys(report.files as object)).toEqual(["lib/relay.ts"]);
    const all = mutants(join(dir, "report.json"));
    const RULE = "capture.exitCode === 1 && !capture.timedOut";
    expect(
      all.map((m) => [m.location.start.line, m.mutatorName, m.replacement, m.status, ...(m.killedBy ?? [])]),
    ).toEqual([
      // runReviewHostRelaySlot: the selected clause never calls it.
      [1, "BlockStatement", "{}", "NoCoverage"],
      [2, "StringLiteral", '""', "NoCoverage"],
      // The admission rule: every mutant falls to the clause that probes it.
      [5, "BlockStatement", "{}", "Killed", "API-ADMISSION-REFUSAL"],
      // The label is executed but read by nothing: its mutant survives.
      [6, "StringLiteral", '""', "Survived"],
      [8, "ConditionalExpression", "true", "Killed", "API-ADMISSION-REFUSAL"],
      [8, "ConditionalExpression", "false", "Killed", "API-ADMISSION-REFUSAL"],
      [8, "LogicalOperator", `${RULE} || /\\[invalid_request\\]/.test(stderr)`, "Killed", "API-ADMISSION-REFUSAL"],
      [8, "ConditionalExpression", "true", "Killed", "API-ADMISSION-REFUSAL"],
      [8, "LogicalOperator", "capture.exitCode === 1 || !capture.timedOut", "Killed", "API-ADMISSION-REFUSAL"],
      [8, "ConditionalExpression", "true", "Killed", "API-ADMISSION-REFUSAL"],
      [8, "EqualityOperator", "capture.exitCode !== 1", "Killed", "API-ADMISSION-REFUSAL"],
      [8, "BooleanLiteral", "capture.timedOut", "Killed", "API-ADMISSION-REFUSAL"],
      // neverCalled: no case executes it.
      [11, "BlockStatement", "{}", "NoCoverage"],
      [12, "ArithmeticOperator", "n - 1", "NoCoverage"],
      [15, "BlockStatement", "{}", "NoCoverage"],
      // The comment's mutant: never run, not counted, with the comment's reason.
      [17, "BooleanLiteral", "flag", "Ignored"],
    ]);
    expect(all.find((m) => m.status === "Ignored")?.statusReason).toBe("the test marks it equivalent");
    expect(all.filter((m) => m.status !== "Ignored" && m.duration === undefined)).toEqual([]);
    expect(Object.keys(report.performance as object)).toEqual(["setup", "initialRun", "mutation"]);
    const killed = all.filter((m) => m.status === "Killed").length;
    const score = ((killed * 100) / (all.length - 1)).toFixed(2);
    expect(r.stdout.split("\n").slice(0, 2)).toEqual([
      expect.stringMatching(
        new RegExp(`^mutation score ${score.replace(".", "\\.")}% \\(${all.length} mutants in \\d+\\.\\ds\\)$`),
      ),
      `killed ${killed}, survived 1, timeout 0, no coverage 5 (not counted: ignored 1)`,
    ]);
    const survivor = all.find((m) => m.status === "Survived");
    expect(r.stdout).toContain(
      [
        `SURVIVED  lib/relay.ts:6:17  StringLiteral #${survivor?.id}`,
        '    -   const label = "admission";',
        '    +   const label = "";',
        "  no clause pins this behaviour",
      ].join("\n"),
    );
    const html = readFileSync(join(dir, "report.html"), "utf8");
    expect(html).toContain("<mutation-test-report-app");
    expect(html).toContain("customElements.define");
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain('"lib/relay.ts"');
  });

  it("--break exits 1 below the score; --json - puts the report on stdout", async () => {
    const r = await mutate(["--relay", "lib/relay.ts", "--break", "99", "--json", "-"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ schemaVersion: "2", thresholds: { high: 80, low: 60, break: 99 } });
    expect(r.stderr).toMatch(/mutation score [\d.]+% is below --break 99\n$/);
  });

  it("--since mutates only the lines changed since the ref", async () => {
    const git = (...args: string[]): string =>
      execFileSync("git", args, {
        cwd: dir,
        encoding: "utf8",
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: "t",
          GIT_AUTHOR_EMAIL: "t@example.invalid",
          GIT_COMMITTER_NAME: "t",
          GIT_COMMITTER_EMAIL: "t@example.invalid",
        },
      });
    git("init", "-q", "-b", "main");
    git("add", "lib/relay.ts");
    git("commit", "-q", "-m", "relay");
    writeFileSync(join(relayDir, "relay.ts"), RELAY.replace("return n + 1;", "return n * 2;"));
    const r = await mutate(["--relay", "lib/relay.ts", "--since", "HEAD", "--json", "since.json"]);
    expect(r.code).toBe(0);
    expect(
      mutants(join(dir, "since.json")).map((m) => `${m.location.start.line} ${m.mutatorName} ${m.status}`),
    ).toEqual([
      // The function's body spans the changed line; the operator is on it.
      "11 BlockStatement NoCoverage",
      "12 ArithmeticOperator NoCoverage",
    ]);
    writeFileSync(join(relayDir, "relay.ts"), RELAY);
  });

  it("refuses a relay the selected clauses fail (exit 2, naming them) and a bad ref", async () => {
    writeFileSync(join(relayDir, "broken.ts"), RELAY.replace("capture.exitCode === 1 &&", ""));
    const r = await mutate(["--relay", "lib/broken.ts"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^relay-conformance: the unmutated relay fails 1 clause\(s\): API-ADMISSION-REFUSAL; mutation testing needs a relay that passes: API-ADMISSION-REFUSAL: /,
    );
    const bad = await mutate(["--relay", "lib/relay.ts", "--since", "no-such-ref"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since "no-such-ref" is not a commit of the git repository at');
  });
});
