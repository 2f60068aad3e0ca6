import { build } from "esbuild";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../paths.ts";

// Located from the repository root, not this module: the CLI runs from a bundle in dist/.
const shimEntry = (): string => join(packageRoot(), "conformance", "repro", "shim-main.ts");

/** A temp dir holding `gentle-ai` and `pi` recording shims; `dispose` removes it. */
export interface ShimDir {
  readonly dir: string;
  readonly gentleAi: string;
  readonly pi: string;
  readonly transcript: string;
  dispose(): Promise<void>;
}

let bundle: Promise<Uint8Array> | undefined;

/** The shim's code, bundled once per process: a differential run makes two worlds per call. */
function shimCode(): Promise<Uint8Array> {
  bundle ??= build({
    entryPoints: [shimEntry()],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    logLevel: "silent",
    banner: { js: `#!${process.execPath}` },
  }).then((bundled) => {
    const code = bundled.outputFiles[0]?.contents;
    if (code === undefined) throw new Error("esbuild produced no shim bundle");
    return code;
  });
  bundle.catch(() => (bundle = undefined));
  return bundle;
}

/** Writes two recording executables in front of the real gentle-ai and pi. */
export async function createShims(
  targets: { gentleAi: string; pi: string },
  parent = tmpdir(),
  fixedName?: string,
): Promise<ShimDir> {
  // A fixed name gives both sides of a differential run the same shim paths.
  const dir =
    fixedName === undefined ? await mkdtemp(join(parent, "relay-conformance-shim-")) : join(parent, fixedName);
  if (fixedName !== undefined) await mkdir(dir);
  try {
    const code = await shimCode();
    // The shims are extensionless ESM; this marker makes Node load them as modules.
    await writeFile(join(dir, "package.json"), '{"type":"module"}\n');
    const transcript = join(dir, "transcript.jsonl");
    await writeFile(transcript, "");
    const gentleAi = join(dir, "gentle-ai");
    const pi = join(dir, "pi");
    for (const [path, program, target] of [
      [gentleAi, "gentle-ai", targets.gentleAi],
      [pi, "pi", targets.pi],
    ] as const) {
      await writeFile(path, code);
      await chmod(path, 0o755);
      await writeFile(`${path}.shim.json`, JSON.stringify({ program, target, transcript }));
    }
    return { dir, gentleAi, pi, transcript, dispose: () => rm(dir, { recursive: true, force: true }) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
