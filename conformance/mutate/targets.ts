// Which files `mutate` mutates, and which of their lines: by default the relay file and the files it imports from
// its own folder (transitively); `--mutate <glob>` instead; `--since <ref>` keeps only lines changed since the ref.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;
const SOURCE = /\.[cm]?[jt]sx?$/;

/** A relative specifier as a file: as written, or with the TypeScript extension for a `.js` one, or an index. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base,
    base.replace(/\.([cm]?)js$/, ".$1ts"),
    `${base}.ts`,
    `${base}.js`,
    join(base, "index.ts"),
    join(base, "index.js"),
  ];
  return candidates.find((file) => SOURCE.test(file) && existsSync(file) && statSync(file).isFile());
}

/** The relay file and every file it imports, directly or not, from inside `folder`. */
export function defaultTargets(relay: string, folder = dirname(relay)): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file) || !isInside(folder, file)) return;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = resolveImport(file, match[1] ?? "");
      if (target !== undefined) visit(target);
    }
  };
  visit(relay);
  return [...seen].sort();
}

export function isInside(folder: string, file: string): boolean {
  const rel = relative(folder, file);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep);
}

/** A glob (`*`, `**`, `?`, `{a,b}`) as a regular expression over `/`-separated relative paths. */
export function globRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] ?? "";
    if (c === "*" && glob[i + 1] === "*") {
      out += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "{") out += "(?:";
    else if (c === "}") out += ")";
    else if (c === ",") out += "|";
    else out += c.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** Source files under `folder` (not node_modules nor dot folders) whose path relative to `cwd` matches a glob. */
export function globTargets(folder: string, cwd: string, globs: readonly string[]): string[] {
  const patterns = globs.map(globRegExp);
  return listSources(folder)
    .filter((file) => {
      const rel = relative(cwd, file).split(sep).join("/");
      return patterns.some((p) => p.test(rel));
    })
    .sort();
}

/** Every source file under `folder` but tests, node_modules and dot folders. */
export function listSources(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...listSources(path));
    else if (
      SOURCE.test(entry.name) &&
      !/\.(test|spec)\.[cm]?[jt]sx?$/.test(entry.name) &&
      !entry.name.endsWith(".d.ts")
    )
      out.push(path);
  }
  return out;
}

/** The lines (1-based) of each file changed since `ref` in its git work tree; a file git does not track is all new. */
export function changedLines(ref: string, files: readonly string[]): Map<string, Set<number> | "all"> {
  const out = new Map<string, Set<number> | "all">();
  for (const file of files) {
    const cwd = dirname(file);
    const git = (args: string[]): string =>
      execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    try {
      git(["ls-files", "--error-unmatch", file]);
    } catch {
      out.set(file, "all");
      continue;
    }
    const lines = new Set<number>();
    for (const match of git(["diff", "--unified=0", "--no-color", ref, "--", file]).matchAll(
      /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/gm,
    )) {
      const start = Number(match[1]);
      const count = match[2] === undefined ? 1 : Number(match[2]);
      for (let line = start; line < start + count; line += 1) lines.add(line);
    }
    out.set(file, lines);
  }
  return out;
}
