import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { main } from "../../../conformance/main.ts";
import { readGolden } from "../../../conformance/goldens/golden-file.ts";
import { paths } from "../../../conformance/goldens/paths.ts";
import { createShims } from "../../../conformance/repro/shim.ts";
import type { TranscriptEntry } from "../../../simulator/output/transcript-schema.ts";

const SLOW = 240_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "golden-record-test-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture(): {
  io: { stdout: (t: string) => void; stderr: (t: string) => void; cwd: string };
  out: string[];
  err: string[];
} {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd: dir }, out, err };
}

describe("recording shim", () => {
  it("passes argv, env, cwd, stdin, stdout, stderr and the exit code through untouched", async () => {
    const target = join(dir, "target.sh");
    writeFileSync(
      target,
      '#!/bin/sh\nprintf "argv:%s|" "$@"\npwd\n/usr/bin/env\ncat\nprintf "\\000\\377" \nprintf "oops\\r\\n" >&2\nexit 3\n',
    );
    chmodSync(target, 0o755);
    const input = join(dir, "input.raw");
    writeFileSync(input, Buffer.from([0, 1, 2, 0xfe]));
    const shims = await createShims({ gentleAi: target, pi: target }, dir);
    try {
      const argv = ["review", "capture-result", `--input=${input}`, "two words", ""];
      const options = {
        cwd: dir,
        env: { PATH: "/usr/bin:/bin", ODD: "a\nb", GENTLE_PI_REVIEW_RELAY_CONTRACT: "x" },
        input: Buffer.from([9, 0, 8]),
      };
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
    "records a shipped script against a binary (the simulator as a black box) and replays it green",
    async () => {
      const out = join(dir, "recorded.golden.json");
      const script = join(paths.conversationsDir(), "lens-capture-2.4.0.txtar");
      const rec = capture();
      const code = await main(
        [
          "record",
          "--script",
          script,
          "--binary",
          paths.simGentleAi(),
          "--out",
          out,
          "--name",
          "recorded-lens-capture",
        ],
        rec.io,
      );
      expect([code, rec.err.join("")]).toEqual([0, ""]);
      const golden = readGolden(out);
      expect(golden.source).toEqual({ kind: "binary", version: "gentle-ai 2.4.0" });
      expect(golden.script).toBe(relative(dir, script));
      expect(golden.profile).toBe("2.4.0");
      expect(golden.calls.map((c) => `${c.program} ${c.argv[1] ?? ""}`)).toEqual([
        "gentle-ai status",
        ...Array.from({ length: 4 }, () => [
          "gentle-ai capture-result",
          "pi --mode",
          "gentle-ai capture-result",
        ]).flat(),
        "gentle-ai status",
      ]);
      expect(golden.calls[3]!.argv.at(-1)).toBe("--input=<TMP>/gentle-pi-host-relay-result-<X>/result.raw");
      expect(golden.calls[3]!.files.map((f) => f.path)).toEqual(["<TMP>/gentle-pi-host-relay-result-<X>/result.raw"]);
      expect(golden.calls[2]!.cwd).toBe("<TMP>/gentle-pi-opaque-reviewer-<X>");
      // One outcome per step: STATUS, four relay slots, STATUS.
      expect(golden.outcomes.map((o) => o["ok"])).toEqual([true, true, true, true, true, true]);
      expect(rec.out.join("")).toBe(`recorded 14 calls of gentle-ai 2.4.0 into ${out}\n`);
      const rep = capture();
      expect(await main(["replay", out], rep.io)).toBe(0);
      expect(rep.out.join("")).toBe("PASS golden recorded-lens-capture\n");
    },
    SLOW,
  );

  it(
    "a new golden is one script: written here, recorded against the simulator, accepted by replay",
    async () => {
      const script = join(dir, "two-slots.txtar");
      writeFileSync(
        script,
        [
          "# A host relays the first two slots of one STATUS.",
          "",
          "title two slots",
          "scenario world",
          "status agent=pi",
          "relay status=last slot=0",
          "relay status=last slot=1",
          "",
          "-- world --",
          '{ "profile": "2.4.0" }',
          "",
        ].join("\n"),
      );
      const out = join(dir, "two-slots.golden.json");
      const rec = capture();
      expect(await main(["record", "--script", script, "--out", out], rec.io)).toBe(0);
      const golden = readGolden(out);
      expect([golden.name, golden.script, golden.source.kind, golden.calls.length]).toEqual([
        "two-slots",
        "two-slots.txtar",
        "simulator",
        7,
      ]);
      const rep = capture();
      expect(await main(["replay", out], rep.io)).toBe(0);
      expect(rep.out.join("")).toBe("PASS golden two-slots\n");
    },
    SLOW,
  );

  it("rejects bad input with exit 2 and one line naming the flag or the file", async () => {
    const twoPhases = join(dir, "two-phases.txtar");
    writeFileSync(twoPhases, "title two\nphase a\nscenario w\nstatus\nphase b\nstatus\n-- w --\n{}\n");
    const cases: [string[], string][] = [
      [[], "relay-conformance: record needs --script <file.txtar>\nRun `relay-conformance record --help` for usage.\n"],
      [
        ["--script", "nope.txtar"],
        "relay-conformance: --script nope.txtar: no such file\nRun `relay-conformance record --help` for usage.\n",
      ],
      [
        ["--script", twoPhases],
        `relay-conformance: ${twoPhases}: a golden script has exactly one phase (this one has 2)\nRun \`relay-conformance record --help\` for usage.\n`,
      ],
      [
        [
          "--script",
          join(paths.conversationsDir(), "lens-capture-2.4.0.txtar"),
          "--binary",
          join(dir, "missing-binary"),
        ],
        `relay-conformance: --binary ${join(dir, "missing-binary")}: not an executable file (ENOENT)\nRun \`relay-conformance record --help\` for usage.\n`,
      ],
      [
        ["--script", join(paths.conversationsDir(), "lens-capture-2.4.0.txtar"), "--commit", "abc"],
        "relay-conformance: --commit and --build describe a --binary\nRun `relay-conformance record --help` for usage.\n",
      ],
      [
        ["--script", join(paths.conversationsDir(), "role-vector-2.4.0.txtar"), "--binary", paths.simGentleAi()],
        `relay-conformance: --script ${join(paths.conversationsDir(), "role-vector-2.4.0.txtar")}: only the simulator can run it (its scenario seeds a lineage, which only the simulator can); record it without --binary\nRun \`relay-conformance record --help\` for usage.\n`,
      ],
    ];
    for (const [args, stderr] of cases) {
      const r = capture();
      expect([await main(["record", ...args], r.io), r.err.join(""), r.out.join("")]).toEqual([2, stderr, ""]);
    }
  });
});
