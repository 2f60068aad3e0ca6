// docs/ci.md's GitHub Actions workflow: it parses, has the shape the recipe promises (a 3-shard gate on relay pull
// requests, a merge job after it, a nightly lanes job), pins every action by commit SHA as gentle-pi's CI does, runs
// Node 24, and every `relay-conformance` command in it exists, with only options its `--help` lists. The checkers
// themselves are shown to catch a misspelt command or option and an unpinned action.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cli } from "../support/cli.ts";
import { packageRoot } from "../../conformance/paths.ts";

const doc = readFileSync(join(packageRoot(), "docs/ci.md"), "utf8");

/** The bodies of the ```yaml fences of a Markdown text. */
function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "");
}

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly with?: Record<string, unknown>;
}
interface Job {
  readonly needs?: string | string[];
  readonly if?: string;
  readonly strategy?: { matrix?: Record<string, unknown> };
  readonly steps: Step[];
}
interface Workflow {
  readonly on: {
    pull_request?: { paths?: string[] };
    schedule?: { cron: string }[];
  };
  readonly jobs: Record<string, Job>;
}

/** One `relay-conformance <sub> …` invocation found in a `run:` script. */
interface Invocation {
  readonly line: string;
  readonly sub: string;
  /** Long option names used, without their values (`--json`, not `--json=x`). */
  readonly options: string[];
}

/** Every `relay-conformance` invocation (through `npx [--no]` or `pnpm exec`) in a shell script. */
function invocations(script: string): Invocation[] {
  const out: Invocation[] = [];
  for (const line of script.replace(/\\\n/g, " ").split("\n")) {
    for (const m of line.matchAll(
      /(?:\bnpx(?: --no(?:-install)?| --yes=false)?|\bpnpm exec) relay-conformance((?: +[^;&|]+)?)/g,
    )) {
      const words = (m[1] ?? "")
        .trim()
        .split(/\s+/)
        .map((w) => w.replace(/^["']|["']$/g, ""));
      out.push({
        line: m[0],
        sub: words[0] ?? "",
        options: words
          .slice(1)
          .filter((w) => w.startsWith("--"))
          .map((w) => w.split("=")[0] ?? w),
      });
    }
  }
  return out;
}

/** What the CLI prints for argv, in-process. */
async function helpText(argv: string[]): Promise<string> {
  return (await cli(argv)).stdout;
}

/**
 * The problems of one invocation: its subcommand is not in `relay-conformance --help`, or an option not in its
 * `--help`.
 */
async function problems(call: Invocation): Promise<string[]> {
  const top = await helpText(["--help"]);
  const commands = [...(/^Commands:\n([\s\S]*?)\n\n/m.exec(top)?.[1] ?? "").matchAll(/^ {2}(\S+) {2,}/gm)].map(
    (m) => m[1],
  );
  if (!commands.includes(call.sub))
    return [`${call.line}: no command ${JSON.stringify(call.sub)} in relay-conformance --help`];
  const usage = await helpText([call.sub, "--help"]);
  return call.options
    .filter((o) => !new RegExp(`(^|[\\s\\[(,|])${o}(?![\\w-])`, "m").test(usage))
    .map((o) => `${call.line}: ${o} is not in relay-conformance ${call.sub} --help`);
}

/** The problems of a workflow's `uses:` lines: each must pin a full commit SHA and say its version in a comment. */
function unpinned(yaml: string): string[] {
  return [...yaml.matchAll(/^\s*(?:- )?uses: (.*)$/gm)]
    .map((m) => m[1] ?? "")
    .filter((use) => !/^[\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+(?:\.\d+){0,2}$/.test(use))
    .map((use) => `uses: ${use}: not a full commit SHA with a "# v<version>" comment`);
}

const blocks = yamlBlocks(doc);
const workflow = parse(blocks[0] ?? "") as Workflow;
const steps = (job: string): Step[] => workflow.jobs[job]?.steps ?? [];
const calls = Object.values(workflow.jobs ?? {}).flatMap((j) =>
  j.steps.flatMap((s) => (typeof s.run === "string" ? invocations(s.run) : [])),
);

describe("docs/ci.md: the GitHub Actions recipe", () => {
  it("is one yaml block that parses to a workflow", () => {
    expect(blocks).toHaveLength(1);
    expect(Object.keys(workflow.jobs).sort()).toEqual(["gate", "merge", "mutate", "mutate-pr", "upstream-lanes"]);
  });

  it("gates pull requests that touch the relay or the dependencies, in 3 shards", () => {
    expect(workflow.on.pull_request?.paths).toEqual(
      expect.arrayContaining(["lib/review-host-relay.ts", "package.json", "pnpm-lock.yaml"]),
    );
    const gate = workflow.jobs.gate;
    expect(gate?.strategy?.matrix?.shard).toEqual([1, 2, 3]);
    expect(gate?.if).toBe("github.event_name == 'pull_request'");
    const run = calls.find((c) => c.sub === "run");
    expect(run?.line).toContain("--relay lib/review-host-relay.ts");
    expect(run?.line).toContain("--shard ${{ matrix.shard }}/3");
    expect(run?.line).toMatch(/--seed \d+ /);
    expect(run?.options).toEqual(expect.arrayContaining(["--json", "--quiet"]));
    expect(
      steps("gate").some(
        (s) => s.uses?.startsWith("actions/upload-artifact@") === true && s.if === "${{ !cancelled() }}",
      ),
    ).toBe(true);
  });

  it("merges the shards after the gate and publishes the JUnit and the Markdown summary", () => {
    const merge = workflow.jobs.merge;
    expect([merge?.needs].flat()).toContain("gate");
    expect(merge?.if).toContain("!cancelled()");
    expect(steps("merge").some((s) => s.uses?.startsWith("actions/download-artifact@") === true)).toBe(true);
    const call = calls.find((c) => c.sub === "merge-reports");
    expect(call?.line).toContain("shards/shard-1.json shards/shard-2.json shards/shard-3.json");
    expect(call?.options).toEqual(["--json", "--junit", "--markdown"]);
    const junit = steps("merge").find((s) => s.uses?.startsWith("mikepenz/action-junit-report@") === true);
    expect(call?.line).toContain(`--junit ${String(junit?.with?.report_paths)}`);
    const summary = steps("merge").find((s) => s.run?.includes("$GITHUB_STEP_SUMMARY") === true);
    expect(call?.line).toContain(`--markdown ${/^cat (\S+) >>/.exec(summary?.run ?? "")?.[1] ?? "?"}`);
  });

  it("runs upstream-lanes nightly", () => {
    expect(workflow.on.schedule?.[0]?.cron).toMatch(/^\S+ \S+ \* \* \*$/);
    expect(workflow.jobs["upstream-lanes"]?.if).toContain("github.event_name == 'schedule'");
    expect(calls.find((c) => c.sub === "upstream-lanes")?.line).toBe(
      "npx --no relay-conformance upstream-lanes --gentle-pi . --json upstream-lanes.json",
    );
  });

  it("pins every action by full commit SHA with a version comment, and runs Node 24", () => {
    expect(unpinned(blocks[0] ?? "")).toEqual([]);
    const setups = Object.values(workflow.jobs).flatMap((j) =>
      j.steps.filter((s) => s.uses?.startsWith("actions/setup-node@") === true),
    );
    expect(setups.map((s) => s.with?.["node-version"])).toEqual(["24", "24", "24", "24", "24"]);
  });

  it("the pin checker catches a tag, a short SHA and a missing version comment", () => {
    const sha = "34e114876b0b11c390a56381ad16ebd13914f8d5";
    const yaml = [
      `- uses: actions/checkout@v4`,
      `  uses: actions/checkout@${sha.slice(0, 7)} # v4`,
      `- uses: actions/checkout@${sha}`,
      `- uses: actions/checkout@${sha} # v4`,
    ].join("\n");
    expect(unpinned(yaml)).toEqual([
      'uses: actions/checkout@v4: not a full commit SHA with a "# v<version>" comment',
      'uses: actions/checkout@34e1148 # v4: not a full commit SHA with a "# v<version>" comment',
      `uses: actions/checkout@${sha}: not a full commit SHA with a "# v<version>" comment`,
    ]);
  });

  it("mutates the relay nightly, uploading the HTML report, and the changed lines on pull requests", () => {
    const [pr, nightly] = calls.filter((c) => c.sub === "mutate");
    expect(workflow.jobs.mutate?.if).toContain("github.event_name == 'schedule'");
    expect(nightly?.line).toContain("--relay lib/review-host-relay.ts");
    expect(nightly?.options).toEqual(expect.arrayContaining(["--html", "--json", "--break"]));
    const html = /--html (\S+)/.exec(nightly?.line ?? "")?.[1];
    const upload = steps("mutate").find((s) => s.uses?.startsWith("actions/upload-artifact@") === true);
    expect(upload?.if).toBe("${{ !cancelled() }}");
    expect(String(upload?.with?.path).split("\n")).toContain(html);
    expect(workflow.jobs["mutate-pr"]?.if).toBe("github.event_name == 'pull_request'");
    expect(pr?.line).toContain("--since origin/${{ github.base_ref }}");
    // --since diffs against the base branch: the checkout must carry the history.
    expect(steps("mutate-pr")[0]?.with?.["fetch-depth"]).toBe(0);
  });

  it("every relay-conformance command in it exists with only options its --help lists", async () => {
    expect(calls.map((c) => c.sub)).toEqual(["run", "merge-reports", "upstream-lanes", "mutate", "mutate"]);
    for (const call of calls) expect(await problems(call)).toEqual([]);
  });

  it("the checker catches a misspelt command or option", async () => {
    const [mutated, ...rest] = invocations(
      [
        "npx relay-conformance rnu --relay lib/review-host-relay.ts",
        "npx --no relay-conformance run --relay x --shrad 1/3 --quiet",
        "pnpm exec relay-conformance merge-reports a.json --junit=j.xml --mark-down m.md",
        "npx --no relay-conformance upstream-lanes --gentle-pi . --json-out r.json",
      ].join("\n"),
    );
    expect(await problems(mutated!)).toEqual([
      'npx relay-conformance rnu --relay lib/review-host-relay.ts: no command "rnu" in relay-conformance --help',
    ]);
    expect((await Promise.all(rest.map(problems))).flat()).toEqual([
      "npx --no relay-conformance run --relay x --shrad 1/3 --quiet: --shrad is not in relay-conformance run --help",
      "pnpm exec relay-conformance merge-reports a.json --junit=j.xml --mark-down m.md: --mark-down is not in relay-conformance merge-reports --help",
      "npx --no relay-conformance upstream-lanes --gentle-pi . --json-out r.json: --json-out is not in relay-conformance upstream-lanes --help",
    ]);
  });
});
