// A small TypeScript import scanner: every relative import, export-from and dynamic import() of a source tree,
// type-only ones included (a type-only cycle still couples two files), for tests over the module graph.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, resolve } from "node:path";
import ts from "typescript";

/** One import edge: from a file to the file it names (both relative to the root, with "/" separators). */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Relative imports of one file's text, with whether each is type-only. */
export function importsOf(
  fileName: string,
  text: string,
): { readonly specifier: string; readonly typeOnly: boolean }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: allTypes });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((i) => i.specifier.startsWith("."));
}

/** Every relative import edge of the .ts files under `dir` (tests included), as paths relative to `root`. */
export function importGraph(root: string, dir: string): ImportEdge[] {
  const rel = (p: string): string => relative(root, p).split("\\").join("/");
  return sourceFiles(resolve(root, dir)).flatMap((file) =>
    importsOf(file, readFileSync(file, "utf8")).map((i) => ({
      from: rel(file),
      to: rel(resolve(dirname(file), i.specifier)),
      typeOnly: i.typeOnly,
    })),
  );
}

/**
 * The strongly connected components with more than one file, or a file importing itself: every import cycle, sorted.
 */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  // Tarjan's algorithm, iterative over a small graph.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const strongConnect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) strongConnect(v);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * The folder graph of a tree's import edges: each file stands for its folder, a file at the tree's top for itself
 * (conformance/api.ts imports every folder, and every folder may import conformance/paths.ts). Edges that leave the
 * tree are dropped, and so are edges between a folder and a folder inside it: a folder and its subfolders are one
 * unit's layers (repro/ and repro/steps/), what the folder rule is not about.
 */
export function folderGraph(edges: readonly ImportEdge[], tree: string): ImportEdge[] {
  const node = (file: string): string => (posix.dirname(file) === tree ? file : posix.dirname(file));
  const nested = (a: string, b: string): boolean => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
  return edges
    .filter((e) => e.to.startsWith(`${tree}/`))
    .map((e) => ({ from: node(e.from), to: node(e.to), typeOnly: e.typeOnly }))
    .filter((e) => !nested(e.from, e.to));
}
