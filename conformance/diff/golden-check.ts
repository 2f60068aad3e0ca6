// The simulator against a golden recorded from a real binary: the golden's script runs live on the simulator in the
// golden's profile, and its calls are compared with the recorded ones by the differential run's rules. CI has no
// gentle-ai build; this is how it still proves the simulator against real bytes.
import { blobBytes } from "../../simulator/output/transcript.ts";
import type { GoldenCall } from "../goldens/golden-schema.ts";
import { readGolden } from "../goldens/golden-file.ts";
import { captureScript } from "../record/record.ts";
import { goldenScript } from "../replay/golden-replay.ts";
import { comparePhase } from "./compare.ts";
import { MASK_RULES, type NormalCall } from "./normalise.ts";
import { HashPairing } from "./pairing.ts";
import type { Divergence } from "./report-schema.ts";

function masked(bytes: Buffer): Buffer {
  let text = bytes.toString("latin1");
  for (const m of MASK_RULES) text = text.replace(m.pattern, m.replace);
  return Buffer.from(text, "latin1");
}

/** Golden calls (paths already placeholders) as the differential run compares them; nested calls are kept. */
export function goldenNormalCalls(calls: readonly GoldenCall[]): NormalCall[] {
  const text = (s: string): string => masked(Buffer.from(s, "utf8")).toString("utf8");
  return calls.map((c) => ({
    program: c.program,
    argv: c.argv.map(text),
    handshake: c.handshake,
    stdin: masked(blobBytes(c.stdin)),
    files: c.files.map((f) => ({ path: text(f.path), bytes: masked(blobBytes(f)) })),
    exit: c.exit.signal !== null ? `signal ${c.exit.signal}` : `exit ${c.exit.code ?? "?"}`,
    stdout: masked(blobBytes(c.stdout)),
    stderr: masked(blobBytes(c.stderr)),
  }));
}

/** Every divergence between a binary golden's calls and the live simulator's run of its script. */
export async function simulatorAgainstGolden(path: string): Promise<Divergence[]> {
  const golden = readGolden(path);
  const live = await captureScript(goldenScript(path, golden), {
    recording: "shim",
    profile: golden.profile,
    simulatorCompatible: true,
  });
  return comparePhase(1, goldenNormalCalls(golden.calls), goldenNormalCalls(live.calls), new HashPairing());
}
