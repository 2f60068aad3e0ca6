// The scenario validation cache's build key (simulator/scenario/scenario-cache.ts): a digest of every source file the
// scenario validator is made of, zod included, so any change to the schema or its defaults invalidates old entries.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

/** sha256 (hex) over the path and bytes of every input of simulator/scenario/load.ts's bundle; `read` is for tests. */
export async function scenarioValidatorDigest(root, read = readFileSync) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, "simulator/scenario/load.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    metafile: true,
    logLevel: "warning",
  });
  const digest = createHash("sha256");
  for (const input of Object.keys(result.metafile.inputs).sort())
    digest
      .update(`${input}\0`)
      .update(read(join(root, input)))
      .update("\0");
  return digest.digest("hex");
}
