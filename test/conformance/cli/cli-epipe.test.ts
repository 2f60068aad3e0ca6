// A closed reader (`relay-conformance … | head`): every command ends quietly, like a SIGPIPE'd Unix tool, and
// still leaves no temp folder or process behind.
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { launcher, leftovers, privateTmps, root } from "../../support/cli-process.ts";
import { eventually, processesUsing } from "../../support/processes.ts";

const tmps = privateTmps();
afterAll(() => tmps.cleanup());

/** Runs `<launcher> args | true` in bash: the reader is gone before the first write. */
function pipedToClosedReader(args: string[], tmp: string): { status: string; stderr: string } {
  const r = spawnSync("bash", ["-c", '"$@" | true; echo "${PIPESTATUS[0]}"', "bash", launcher, ...args], {
    cwd: root,
    env: { ...process.env, TMPDIR: tmp },
    encoding: "utf8",
  });
  return { status: r.stdout.trim(), stderr: r.stderr };
}

describe("a closed reader (EPIPE) ends every command quietly", () => {
  it.each([
    ["list", ["list"]],
    ["list --markdown", ["list", "--markdown"]],
    ["run", ["run", "--grep", "^(FORM-MISSING|PI-ARGV-FIXED|NO-RETRY)$", "--seed", "1"]],
    ["replay", ["replay"]],
    ["verify", ["verify", "--binary", "simulator/bin/gentle-ai", "--no-goldens"]],
    ["repro", ["repro", "279"]],
    ["--help", ["--help"]],
  ])("%s | true: no error output, exit 141 (as for SIGPIPE), no temp folder or child left", async (_name, args) => {
    const tmp = tmps.make();
    const started = Date.now();
    const r = pipedToClosedReader(args, tmp);
    expect(r.stderr).toBe("");
    expect(r.status).toBe("141");
    // It stops at the first write instead of running to the end for nobody.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(leftovers(tmp)).toEqual([]);
    expect(await eventually(() => processesUsing(tmp).length === 0, 3000)).toBe(true);
  });

  it("stdout piped to head: the lines head takes are intact", () => {
    const r = spawnSync("bash", ["-c", '"$@" | head -n 2', "bash", launcher, "list"], { cwd: root, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n")).toHaveLength(3);
  });
});
