// `relay-conformance upstream-lanes` on a small gentle-pi-shaped checkout made here: the linked worktree, the
// simulator behind the lanes' variables, the per-test table, exit codes; then, when GENTLE_PI_CHECKOUT names a
// real gentle-pi checkout, its lanes themselves.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.ts";
import { LanesReportSchema } from "../../../conformance/upstream-lanes/report-schema.ts";
import { harnessPaths } from "../../../conformance/paths.ts";

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** A git checkout shaped like gentle-pi: its relay, one devbinary test file, stub test dependencies. */
function fakeGentlePi(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "upstream-lanes-test-"));
  made.push(dir);
  const all: Record<string, string> = {
    "lib/review-host-relay.ts": "export {};\n",
    "node_modules/@earendil-works/pi-coding-agent/package.json": "{}\n",
    "node_modules/@earendil-works/pi-tui/package.json": "{}\n",
    ".gitignore": "node_modules/\n",
    ...files,
  };
  for (const [rel, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", ".");
  git(dir, "-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "fake gentle-pi");
  return dir;
}

// What a devtest sees: the simulator behind both binary variables, the fail-instead-of-skip switch, the fake pi on
// PATH, and a linked worktree as its cwd.
const DEVTEST = `import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import test from "node:test";
test("the dev binary is the simulator at the profile", () => {
  assert.equal(execFileSync(process.env.GENTLE_AI_DEV_BINARY!, ["version"], { encoding: "utf8" }), "gentle-ai 2.4.0\\n");
  assert.equal(process.env.GENTLE_PI_GENTLE_AI_DEV_BINARY, process.env.GENTLE_AI_DEV_BINARY);
  assert.equal(process.env.GENTLE_PI_REQUIRE_DEV_BINARY, "1");
});
test("pi on PATH is the fake pi", () => {
  assert.match(execFileSync("sh", ["-c", "command -v pi"], { encoding: "utf8" }), /\\/bin\\/pi\\n$/);
});
test("the cwd is a linked worktree", () => {
  const common = execFileSync("git", ["rev-parse", "--git-common-dir"], { encoding: "utf8" }).trim();
  assert.notEqual(common, ".git");
});
test("a failing test", () => {
  assert.equal(1, 2);
});
`;

// What a devtest sees with --binary: the given gentle-ai behind both variables and as `gentle-ai` on PATH, no
// simulator scenario, self-update off.
const BINARY_DEVTEST = `import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import test from "node:test";
test("the dev binary is the given one", () => {
  assert.equal(execFileSync(process.env.GENTLE_AI_DEV_BINARY!, ["version"], { encoding: "utf8" }), "real gentle-ai\\n");
  assert.equal(execFileSync("gentle-ai", ["version"], { encoding: "utf8" }), "real gentle-ai\\n");
  assert.equal(process.env.GENTLE_AI_SIM_SCENARIO, undefined);
  assert.equal(process.env.GENTLE_AI_NO_SELF_UPDATE, "1");
});
`;
const BINARY_MAINTEST = `import assert from "node:assert/strict";
import test from "node:test";
test("the capable binary is the given one", () => {
  assert.equal(process.env.GENTLE_PI_MAINTAINER_CAPABLE_BINARY, process.env.GENTLE_AI_DEV_BINARY);
});
`;

describe("relay-conformance upstream-lanes", () => {
  it(
    "runs a lane from a linked worktree against the simulator and reports each test",
    { timeout: 60_000 },
    async () => {
      const checkout = fakeGentlePi({ "tests/devbinary/fake.devtest.ts": DEVTEST });
      const json = join(checkout, "..", `${checkout.split("/").pop()}-report.json`);
      made.push(json);
      const r = await cli(["upstream-lanes", "--gentle-pi", checkout, "--lane", "devbinary", "--json", json]);
      const commit = git(checkout, "rev-parse", "HEAD");
      expect(r.stdout.split("\n").slice(0, 1)).toEqual([
        `upstream-lanes: gentle-pi ${commit.slice(0, 8)} (${checkout}), simulator profile 2.4.0`,
      ]);
      expect(r.stdout).toMatch(
        /^PASS  devbinary  tests\/devbinary\/fake\.devtest\.ts: the dev binary is the simulator at the profile \(\d+ ms\)$/m,
      );
      expect(r.stdout).toMatch(
        /^PASS  devbinary  tests\/devbinary\/fake\.devtest\.ts: pi on PATH is the fake pi \(\d+ ms\)$/m,
      );
      expect(r.stdout).toMatch(
        /^PASS  devbinary  tests\/devbinary\/fake\.devtest\.ts: the cwd is a linked worktree \(\d+ ms\)$/m,
      );
      expect(r.stdout).toMatch(
        /^FAIL  devbinary  tests\/devbinary\/fake\.devtest\.ts: a failing test \(\d+ ms\)\n {6}.*1 !== 2/m,
      );
      expect(r.stdout.endsWith("3 passed, 1 failed\n")).toBe(true);
      expect(r.stderr).toBe("upstream-lanes: devbinary: tests/devbinary/fake.devtest.ts\n");
      expect(r.code).toBe(1);
      const report = LanesReportSchema.parse(JSON.parse(readFileSync(json, "utf8")));
      expect(report).toMatchObject({
        commit,
        profile: "2.4.0",
        lanes: ["devbinary"],
        summary: { passed: 3, failed: 1, skipped: 0 },
      });
      // The worktree is gone and unregistered.
      expect(git(checkout, "worktree", "list").split("\n")).toHaveLength(1);
    },
  );

  it(
    "exits 0 when every test passes; off a terminal a progress line per lane file on stderr",
    { timeout: 60_000 },
    async () => {
      const passing = DEVTEST.replace(/test\("a failing test"[\s\S]*$/, "");
      const checkout = fakeGentlePi({ "tests/devbinary/fake.devtest.ts": passing });
      const r = await cli(["upstream-lanes", "--gentle-pi", checkout, "--lane", "devbinary"], { progress: "lines" });
      expect(r.stdout.endsWith("3 passed, 0 failed\n")).toBe(true);
      expect(r.code).toBe(0);
      // The file's line, then progress lines only (more than one past 10 s): the last at 100%.
      expect(r.stderr).toMatch(
        /^upstream-lanes: devbinary: tests\/devbinary\/fake\.devtest\.ts\n(relay-conformance upstream-lanes: 0\/1 files \(0%\), 0 failed, [^\n]*\n)*relay-conformance upstream-lanes: 1\/1 files \(100%\), 0 failed, \d+:\d\d elapsed, ETA 0:00\n$/,
      );
    },
  );

  it("bad input exits 2 with one line: a missing path, not gentle-pi, not git, a missing lane, an unknown lane", async () => {
    const plain = mkdtempSync(join(tmpdir(), "upstream-lanes-test-"));
    made.push(plain);
    const notGit = join(plain, "gentle-pi");
    mkdirSync(join(notGit, "lib"), { recursive: true });
    writeFileSync(join(notGit, "lib", "review-host-relay.ts"), "");
    const noLane = fakeGentlePi({});
    const cases: [string[], string][] = [
      [["upstream-lanes"], "relay-conformance: upstream-lanes needs --gentle-pi <checkout>"],
      [
        ["upstream-lanes", "--gentle-pi", join(plain, "nope")],
        `relay-conformance: ${join(plain, "nope")}: no such directory`,
      ],
      [
        ["upstream-lanes", "--gentle-pi", plain],
        `relay-conformance: ${plain}: not a gentle-pi checkout (no lib/review-host-relay.ts)`,
      ],
      [
        ["upstream-lanes", "--gentle-pi", notGit],
        `relay-conformance: ${notGit}: not a git checkout (git rev-parse HEAD: `,
      ],
      [
        ["upstream-lanes", "--gentle-pi", noLane, "--lane", "maintainer"],
        `relay-conformance: ${noLane}: no tests/maintainer/*.maintest.ts (this gentle-pi checkout has no maintainer lane)`,
      ],
      [
        ["upstream-lanes", "--gentle-pi", noLane, "--lane", "bogus"],
        'relay-conformance: unknown lane "bogus" (expected devbinary, maintainer, positive or all)',
      ],
    ];
    for (const [args, first] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr.startsWith(first), r.stderr).toBe(true);
      expect(r.stdout).toBe("");
    }
  });

  it("--binary: bad input exits 2 with one line naming the flag", async () => {
    const checkout = fakeGentlePi({ "tests/devbinary/fake.devtest.ts": DEVTEST });
    const plain = join(checkout, "lib", "review-host-relay.ts");
    const sim = harnessPaths().gentleAiSimulator;
    const cases: [string[], string][] = [
      [["--binary"], "relay-conformance: option --binary needs a value\n"],
      [["--binary="], "relay-conformance: --binary needs a path to a gentle-ai binary\n"],
      [
        ["--binary", join(checkout, "nope")],
        `relay-conformance: --binary ${join(checkout, "nope")} is not an executable file (ENOENT)\n`,
      ],
      [["--binary", checkout], `relay-conformance: --binary ${checkout} is not a file\n`],
      [["--binary", plain], `relay-conformance: --binary ${plain} is not an executable file (EACCES)\n`],
      [
        ["--binary", sim, "--profile", "2.5.0"],
        "relay-conformance: --profile and --binary exclude each other: --profile picks the simulator's release\n",
      ],
      [
        ["--binary", sim, "--lane", "devbinary,positive"],
        "relay-conformance: --lane positive cannot run with --binary: it needs the simulator's pinned review session\n",
      ],
    ];
    for (const [args, first] of cases) {
      const r = await cli(["upstream-lanes", "--gentle-pi", checkout, ...args]);
      expect({ code: r.code, stderr: r.stderr.split("\n")[0] + "\n", stdout: r.stdout }, args.join(" ")).toEqual({
        code: 2,
        stderr: first,
        stdout: "",
      });
    }
  });

  it("--binary runs the lanes against the given gentle-ai and says so", { timeout: 60_000 }, async () => {
    const checkout = fakeGentlePi({
      "tests/devbinary/fake.devtest.ts": BINARY_DEVTEST,
      "tests/maintainer/fake.maintest.ts": BINARY_MAINTEST,
    });
    const binary = join(checkout, "..", `${checkout.split("/").pop()}-gentle-ai`);
    made.push(binary);
    writeFileSync(binary, "#!/bin/sh\necho real gentle-ai\n", { mode: 0o755 });
    const json = `${binary}.json`;
    made.push(json);
    const r = await cli(["upstream-lanes", "--gentle-pi", checkout, "--binary", binary, "--json", json, "--quiet"]);
    const commit = git(checkout, "rev-parse", "HEAD");
    expect(r.stdout).toMatch(
      new RegExp(
        `^upstream-lanes: gentle-pi ${commit.slice(0, 8)} \\(${checkout}\\), gentle-ai ${binary}\nPASS  devbinary   tests/devbinary/fake\\.devtest\\.ts: the dev binary is the given one \\(\\d+ ms\\)\nPASS  maintainer  tests/maintainer/fake\\.maintest\\.ts: the capable binary is the given one \\(\\d+ ms\\)\n2 passed, 0 failed\n$`,
      ),
    );
    expect(r.code).toBe(0);
    const report = LanesReportSchema.parse(JSON.parse(readFileSync(json, "utf8")));
    expect({ ...report, tests: [] }).toEqual({
      schema: report.schema,
      checkout,
      commit,
      binary,
      lanes: ["devbinary", "maintainer"],
      tests: [],
      summary: { passed: 2, failed: 0, skipped: 0 },
    });
  });

  it("a failed install of the lanes' dependencies exits 2 naming the cache folder", { timeout: 120_000 }, async () => {
    const checkout = fakeGentlePi({ "tests/devbinary/fake.devtest.ts": DEVTEST });
    rmSync(join(checkout, "node_modules"), { recursive: true, force: true });
    const cache = join(checkout, "..", `${checkout.split("/").pop()}-cache`);
    made.push(cache);
    // A cache path under a regular file can never be created: npm is not even reached.
    writeFileSync(cache, "not a folder");
    const r = await cli([
      "upstream-lanes",
      "--gentle-pi",
      checkout,
      "--lane",
      "devbinary",
      "--deps-cache",
      join(cache, "deps"),
    ]);
    expect(r.code).toBe(2);
    expect(
      r.stderr.startsWith(
        `relay-conformance: cannot install the lanes' test dependencies into ${join(cache, "deps")}: `,
      ),
    ).toBe(true);
    expect(existsSync(join(checkout, "node_modules"))).toBe(false);
  });
});

const gentlePi = process.env.GENTLE_PI_CHECKOUT;
describe.skipIf(gentlePi === undefined)(
  gentlePi === undefined
    ? "GENTLE_PI_CHECKOUT is not set (a gentle-pi checkout): gentle-pi's own lanes are skipped"
    : `gentle-pi's lanes at ${gentlePi}`,
  () => {
    it(
      "every devbinary, maintainer and armed positive-lens test passes against the simulator",
      { timeout: 900_000 },
      async () => {
        const r = await cli(["upstream-lanes", "--gentle-pi", gentlePi!]);
        expect(r.code, r.stdout).toBe(0);
      },
    );
  },
);
