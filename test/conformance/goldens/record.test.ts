import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../../conformance/cli/main.ts";
import { readGolden } from "../../../conformance/goldens/golden-file.ts";
import { paths } from "../../../conformance/goldens/paths.ts";
import { createShims } from "../../../conformance/record/shim.ts";
import type { TranscriptEntry } from "../../../simulator/output/transcript-schema.ts";

const SLOW = 240_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "golden-record-test-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture(): { io: { stdout: (t: string) => void; stderr: (t: string) => void; cwd: string }; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd: dir }, out, err };
}

describe("recording shim", () => {
  it("passes argv, env, cwd, stdin, stdout, stderr and the exit code through untouched", async () => {
    const target = join(dir, "target.sh");
    writeFileSync(target, '#!/bin/sh\nprintf "argv:%s|" "$@"\npwd\n/usr/bin/env\ncat\nprintf "\\000\\377" \nprintf "oops\\r\\n" >&2\nexit 3\n');
    chmodSync(target, 0o755);
    const input = join(dir, "input.raw");
    writeFileSync(input, Buffer.from([0, 1, 2, 0xfe]));
    const shims = await createShims({ gentleAi: target, pi: target }, dir);
    try {
      const argv = ["review", "capture-result", `--input=${input}`, "two words", ""];
      const options = { cwd: dir, env: { PATH: "/usr/bin:/bin", ODD: "a\nb", GENTLE_PI_REVIEW_RELAY_CONTRACT: "x" }, input: Buffer.from([9, 0, 8]) };
      const direct = spawnSync(target, argv, options);
      const shimmed = spawnSync(shims.gentleAi, argv, options);
      expect(shimmed.stdout).toEqual(direct.stdout);
      expect(shimmed.stderr).toEqual(direct.stderr);
      expect([shimmed.status, shimmed.signal]).toEqual([3, null]);
      expect(direct.stdout.includes(Buffer.from("ODD=a\nb\n"))).toBe(true);
      const entry = JSON.parse(readFileSync(shims.transcript, "utf8").trim()) as TranscriptEntry;
      expect(entry.program).toBe("gentle-ai");
      expect(entry.argv).toEqual(argv);
      expect(entry.cwd).toBe(dir);
      expect(entry.handshake).toBe("x");
      expect(Buffer.from(entry.stdin.base64!, "base64")).toEqual(Buffer.from([9, 0, 8]));
      expect(entry.files).toEqual([
        {
          path: input,
          sha256: createHash("sha256")
            .update(Buffer.from([0, 1, 2, 0xfe]))
            .digest("hex"),
          length: 4,
          base64: "AAEC/g==",
        },
      ]);
      expect(Buffer.from(entry.stdout.base64!, "base64")).toEqual(direct.stdout);
      expect(entry.exit).toEqual({ code: 3, signal: null, completed: true });
    } finally {
      await shims.dispose();
    }
  });

  it("re-raises the callee's signal", async () => {
    const target = join(dir, "killed.sh");
    writeFileSync(target, "#!/bin/sh\necho partial\nkill -TERM $$\n");
    chmodSync(target, 0o755);
    const shims = await createShims({ gentleAi: target, pi: target }, dir);
    try {
      const r = spawnSync(shims.pi, [], { cwd: dir });
      expect([r.status, r.signal, r.stdout.toString()]).toEqual([null, "SIGTERM", "partial\n"]);
      const entry = JSON.parse(readFileSync(shims.transcript, "utf8").trim()) as TranscriptEntry;
      expect(entry.exit).toEqual({ code: null, signal: "SIGTERM", completed: true });
      expect(entry.cwdListing).toContain("killed.sh");
    } finally {
      await shims.dispose();
    }
  });
});

// Concurrent: each test records into its own file and mostly waits on the relay and simulator processes.
describe.concurrent("record then replay", () => {
  it(
    "records a lens capture from a binary (the simulator as a black box) and replays it green",
    async () => {
      const out = join(dir, "recorded.golden.json");
      const rec = capture();
      const code = await main(["record", "--binary", paths.simGentleAi(), "--out", out, "--name", "recorded-lens-capture", "--", "--conversation", "lens-capture"], rec.io);
      expect([code, rec.err.join("")]).toEqual([0, ""]);
      const golden = readGolden(out);
      expect(golden.source).toEqual({ kind: "binary", version: "gentle-ai 2.4.0" });
      expect(golden.scenario).toBeNull();
      expect(golden.calls.map((c) => `${c.program} ${c.argv[1] ?? ""}`)).toEqual([
        "gentle-ai status",
        ...Array.from({ length: 4 }, () => ["gentle-ai capture-result", "pi --mode", "gentle-ai capture-result"]).flat(),
        "gentle-ai status",
      ]);
      expect(golden.calls[3]!.argv.at(-1)).toBe("--input=<TMP>/gentle-pi-host-relay-result-<X>/result.raw");
      expect(golden.calls[3]!.files.map((f) => f.path)).toEqual(["<TMP>/gentle-pi-host-relay-result-<X>/result.raw"]);
      expect(golden.calls[2]!.cwd).toBe("<TMP>/gentle-pi-opaque-reviewer-<X>");
      expect(rec.out.join("")).toBe(`recorded 14 calls of gentle-ai 2.4.0 into ${out}\n`);
      const rep = capture();
      expect(await main(["replay", out], rep.io)).toBe(0);
      expect(rep.out.join("")).toBe("PASS golden recorded-lens-capture\n");
    },
    SLOW,
  );

  it(
    "records one explicit slot and rejects bad relay call options with exit 2",
    async () => {
      const bad = capture();
      expect(await main(["record", "--binary", paths.simGentleAi(), "--", "--capture-tokens", "[1]"], bad.io)).toBe(2);
      expect(bad.err.join("")).toBe("relay-conformance: --capture-tokens must be a JSON array of strings\nRun `relay-conformance record --help` for usage.\n");
      const missing = capture();
      expect(await main(["record", "--", "--conversation", "lens-capture"], missing.io)).toBe(2);
      const rec = capture();
      const out = join(dir, "slot.golden.json");
      expect(await main(["record", "--binary", paths.simGentleAi(), "--out", out, "--name", "slot", "--", "--capture-tokens", '["--lineage=review-0"]'], rec.io)).toBe(0);
      const golden = readGolden(out);
      expect(golden.steps).toEqual([{ kind: "slot", captureArgumentTokens: ["--lineage=review-0"] }]);
      expect(golden.calls).toEqual([]);
      expect(golden.outcomes).toEqual([
        {
          kind: "relay-error",
          name: "ReviewHostRelayError",
          errorKind: "submission-contract-mismatch",
          stage: "binding",
          message: "provider contract mismatch: the materialize capture input carries no provider-owned submission form; the host never synthesizes the completing form",
          exitCode: null,
          stderr: "",
          timedOut: false,
          elapsedMs: null,
          timeoutMs: null,
          mutationOutcome: "none",
        },
      ]);
      const rep = capture();
      expect(await main(["replay", out], rep.io)).toBe(0);
    },
    SLOW,
  );
});
