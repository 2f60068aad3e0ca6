// The static surface (version, global and review help, unknown commands and verbs, every modelled verb's usage and its
// unknown-flag refusal, review mode's help, capabilities' contract refusals) against the real binary's bytes. The
// fixtures were recorded from gentle-ai 2.4.0 built from 301fb2ad and gentle-ai 2.5.0 built from fb55ef7b; each file
// names its provenance. They need no repository, so the in-process dispatch answers them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simWorlds } from "../../support/sim-world.ts";

interface RecordedCall {
  readonly argv: string[];
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

const sim = simWorlds();

function recorded(profile: string): RecordedCall[] {
  const file = join(import.meta.dirname, "fixtures", `real-static-${profile}.json`);
  return (JSON.parse(readFileSync(file, "utf8")) as { calls: RecordedCall[] }).calls;
}

/**
 * Calls the simulator still answers differently, with why. Profile 2.3.0 keeps 2.4.0's flag tables and usage texts
 * and 2.4.0's opt-in review mode text (2.3.0 was on by default), and a 2.3.0 parse error in a negotiated call is a
 * pre_native operation_failed envelope (v2.4.0 made it a preflight invalid_request).
 */
const KNOWN_DIVERGENT: Readonly<Record<"2.3.0" | "2.4.0" | "2.5.0", readonly string[]>> = {
  "2.3.0": [
    "review mode",
    "review mode --help",
    "review status --contract gentle-ai.review-integration/v1 --bogus",
    "review capabilities --bogus",
    "review status --help",
    "review status --bogus",
    "review capture-result --help",
    "review capture-result --bogus",
    "review capture-evidence --help",
    "review capture-evidence --bogus",
    "review finalize --help",
    "review finalize --bogus",
    "review start --help",
    "review start --bogus",
  ],
  "2.4.0": [],
  "2.5.0": [],
};

describe.each(["2.3.0", "2.4.0", "2.5.0"] as const)(
  "static surface, profile %s, against the real binary's bytes",
  (profile) => {
    const s = sim({ profile });
    for (const call of recorded(profile)) {
      const name = call.argv.join(" ");
      const test = KNOWN_DIVERGENT[profile].includes(name) ? it.fails : it;
      test(name, async () => {
        const r = await s.invoke(call.argv);
        expect([r.code, r.stdoutText, r.stderrText]).toEqual([call.exitCode, call.stdout, call.stderr]);
      });
    }
  },
);
