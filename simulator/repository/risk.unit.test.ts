// The evidence-only tier (reviewtransaction/risk.go) on real candidates, with the cases gentle-ai's own risk_test.go
// pins (TestAssessSnapshotRiskDerivesProvableShellAndExecutableModeReasons, TestTierIsClassifiedByContentNotExtension).
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveRepository } from "./locate.ts";
import { buildSnapshot } from "./snapshot.ts";
import { diffStats } from "./manifest.ts";
import { assessRisk, consentReason, type RiskAssessment } from "./risk.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function git(repo: string, ...args: string[]): void {
  execFileSync("git", args, { cwd: repo, stdio: "ignore" });
}

/** A repository with tracked.txt committed, the given untracked files, and the candidate including all of them. */
function assess(files: Record<string, string>, prepare?: (repo: string) => void): RiskAssessment {
  const repo = mkdtempSync(join(tmpdir(), "sim-risk-"));
  dirs.push(repo);
  git(repo, "init", "-q", "-b", "main");
  git(repo, "config", "user.email", "r@example.invalid");
  git(repo, "config", "user.name", "r");
  writeFileSync(join(repo, "tracked.txt"), "tracked\n");
  git(repo, "add", "tracked.txt");
  git(repo, "commit", "-q", "-m", "i");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  prepare?.(repo);
  const id = resolveRepository(repo);
  const snapshot = buildSnapshot(id, {
    kind: "current-changes",
    projection: "workspace",
    intendedUntracked: Object.keys(files),
  });
  return assessRisk(id, snapshot, diffStats(id, snapshot));
}

describe("risk tier", () => {
  it("shell source, workflow YAML and an executable bit are high with one provable reason each", () => {
    expect(assess({ "tools/run.sh": "printf '%s\\n' safe\n" })).toEqual({
      level: "high",
      changedLines: 1,
      reasons: [{ code: "shell_source", signal: "shell_process", path: "tools/run.sh" }],
    });
    expect(assess({ ".github/workflows/ci.yml": "jobs: {}\n" }).reasons).toEqual([
      { code: "shell_source", signal: "shell_process", path: ".github/workflows/ci.yml" },
    ]);
    const mode = assess({}, (repo) => {
      git(repo, "config", "core.filemode", "true");
      chmodSync(join(repo, "tracked.txt"), 0o755);
    });
    expect(mode).toEqual({
      level: "high",
      changedLines: 0,
      reasons: [
        { code: "executable_mode", signal: "permissions", path: "tracked.txt", old_mode: "100644", new_mode: "100755" },
      ],
    });
  });

  it("is classified by content, not extension", () => {
    expect(assess({ "docs/guide.md": "Ordinary prose line.\n".repeat(900) }).level).toBe("low");
    expect(assess({ "book/chapter.mdx": "Static prose line.\n".repeat(900) }).level).toBe("low");
    expect(assess({ "book/chapter.mdx": "import Widget from './widget'\n\nProse.\n" }).level).toBe("medium");
    expect(assess({ "docs/guide.md": "#!/usr/bin/env bash\necho hello\n" }).level).toBe("medium");
    expect(assess({ "requirements.txt": "requests==2.31.0\nrich==13.7.0\n" }).level).toBe("medium");
    expect(assess({ "requirements.txt": "# installed via subprocess.run(pip)\nrequests==2.31.0\n" }).level).toBe(
      "high",
    );
    expect(assess({ "CMakeLists.txt": "project(demo)\nexecute_process(COMMAND git rev-parse HEAD)\n" }).level).toBe(
      "high",
    );
    expect(assess({ "README-install.sh": '#!/bin/sh\nexec "$@"\n' }).level).toBe("high");
  });

  it("low risk is the one passive reason; medium names what made it non-passive", () => {
    expect(assess({ "docs/guide.md": "prose\n" }).reasons).toEqual([{ code: "non_executable_only" }]);
    const config = assess({ "package.json": "{}\n" });
    expect(config).toMatchObject({
      level: "medium",
      reasons: [{ code: "configuration_change", path: "package.json" }],
    });
    expect(consentReason(config)).toBe(
      "this change is not purely passive documentation, so it gets one consolidated review. The review starts from a configuration change in package.json.",
    );
  });
});
