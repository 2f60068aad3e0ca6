// The mutants, from StrykerJS's instrumenter with its standard mutators, and the instrumented relay: a copy of the
// relay's folder in a temp dir with the mutated files replaced by their instrumented text (every mutant behind a
// switch, `globalThis.__stryker__.activeMutant`). The hosts load that copy through the usual loader, so loading
// needs no hook. The copy sits where the folder sits in its package, beside symlinks to everything else of the
// package (its package.json, node_modules, the sibling folders a relay imports from, as gentle-pi's lib/ imports
// ../scripts/): a file reached through a symlink loads from its real place, unmutated.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { Instrumenter } from "@stryker-mutator/instrumenter";
import { trackTempDir } from "../process/teardown.ts";

/** A position as the mutation testing report gives it: line and column from 1. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** One mutant of one file (absolute path). */
export interface MutantSpec {
  readonly id: string;
  readonly file: string;
  readonly mutatorName: string;
  readonly replacement: string;
  readonly start: Position;
  readonly end: Position;
  /** Set when a `// Stryker disable` comment marks the mutant: the comment's reason. */
  readonly ignoreReason?: string;
}

/** The instrumented copy of the relay's folder. */
export interface InstrumentedRelay {
  /** The relay module to load: the relay file's place in the copy. */
  readonly relayModule: string;
  readonly mutants: readonly MutantSpec[];
  /** The original text of every mutated file. */
  readonly sources: ReadonlyMap<string, string>;
  remove(): void;
}

// The instrumenter logs through Stryker's logger; only its warnings and errors matter here, and they go to stderr.
const quiet = (): boolean => false;
const loud = (): boolean => true;
const LOGGER = {
  isTraceEnabled: quiet,
  isDebugEnabled: quiet,
  isInfoEnabled: quiet,
  isWarnEnabled: loud,
  isErrorEnabled: loud,
  isFatalEnabled: loud,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => process.stderr.write(`relay-conformance mutate: instrumenter: ${message}\n`),
  error: (message: string) => process.stderr.write(`relay-conformance mutate: instrumenter: ${message}\n`),
  fatal: (message: string) => process.stderr.write(`relay-conformance mutate: instrumenter: ${message}\n`),
};

/** Mutates `files` (inside `folder`, the relay's) and writes the instrumented copy of `folder`. */
export async function instrumentRelay(
  relay: string,
  folder: string,
  files: readonly string[],
): Promise<InstrumentedRelay> {
  const sources = new Map(files.map((file) => [file, readFileSync(file, "utf8")]));
  const instrumenter = new Instrumenter(LOGGER as unknown as ConstructorParameters<typeof Instrumenter>[0]);
  const result = await instrumenter.instrument(
    files.map((name) => ({ name, content: sources.get(name) ?? "", mutate: true as const })),
    { plugins: null, excludedMutations: [], ignorers: [] },
  );
  const root = mkdtempSync(join(tmpdir(), "relay-conformance-mutate-"));
  const untrack = trackTempDir(root);
  const manifest = nearest(dirname(folder), "package.json");
  const packageDir = manifest === undefined ? dirname(folder) : dirname(manifest);
  // Every level from the package down to the folder: symlinks to the entries beside the path.
  for (let at = folder; at !== packageDir; at = dirname(at)) {
    const parent = dirname(at);
    const mirror = join(root, relative(packageDir, parent));
    mkdirSync(mirror, { recursive: true });
    for (const entry of readdirSync(parent)) {
      if (entry !== basename(at) && entry !== ".git") symlinkSync(join(parent, entry), join(mirror, entry));
    }
  }
  const copy = join(root, relative(packageDir, folder));
  cpSync(folder, copy, {
    recursive: true,
    filter: (src) => src === folder || !/^(\.|node_modules$)/.test(basename(src)),
  });
  for (const file of result.files) writeFileSync(join(copy, relative(folder, file.name)), file.content);
  // Bare imports resolve from the package's node_modules, or the nearest one above it.
  const modules = nearest(packageDir, "node_modules");
  if (modules !== undefined && !existsSync(join(root, "node_modules")))
    symlinkSync(modules, join(root, "node_modules"));
  return {
    relayModule: join(copy, relative(folder, relay)),
    mutants: result.mutants.map((m) => ({
      id: m.id,
      file: m.fileName,
      mutatorName: m.mutatorName,
      replacement: m.replacement,
      // Stryker's positions count from 0; the report's from 1.
      start: { line: m.location.start.line + 1, column: m.location.start.column + 1 },
      end: { line: m.location.end.line + 1, column: m.location.end.column + 1 },
      ...(m.status === "Ignored" ? { ignoreReason: m.statusReason ?? "" } : {}),
    })),
    sources,
    remove: () => {
      rmSync(root, { recursive: true, force: true });
      untrack();
    },
  };
}

/** The nearest `name` in `dir` or above it. */
function nearest(dir: string, name: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, name))) return join(at, name);
    if (dirname(at) === at) return undefined;
  }
}
