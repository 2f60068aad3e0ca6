// The intended-untracked inventory and selection (reviewtransaction/snapshot.go DiscoverUnignoredUntracked,
// IntendedUntrackedInventory, ValidateIntendedUntrackedSelection; cli/review_intended_untracked.go).
import { git, nulRecords } from "./git.ts";
import type { RepositoryIdentity } from "./locate.ts";
import { untrackedInventoryDigest } from "../state/identities.ts";
import { goQuoteStr } from "../go/go-quote.ts";

/** The repository's unignored untracked files and their inventory digest. */
export interface UntrackedInventory {
  readonly paths: readonly string[];
  readonly digest: string;
}

/**
 * The caller's untracked declaration (`--untracked-scope`, `--intended-untracked`, `--expected-untracked-inventory`).
 */
export interface UntrackedDeclaration {
  /** `--untracked-scope`, or undefined when not given. */
  readonly scope: string | undefined;
  readonly intended: readonly string[];
  /** `--expected-untracked-inventory`, or undefined when not given. */
  readonly expectedInventory: string | undefined;
}

/** reviewIntendedUntrackedScope: the inventory, the validated selection, and whether STATUS must still ask. */
export interface UntrackedScope {
  readonly inventory: readonly string[];
  readonly intended: readonly string[];
  readonly digest: string;
  readonly needsSelection: boolean;
  readonly declared: boolean;
}

/** A refused declaration; the text is gentle-ai's. */
export class UntrackedSelectionError extends Error {
  override readonly name = "UntrackedSelectionError";
}

/** normalizeLogicalPath: a clean, relative, forward-slash path. */
export function canonicalLogicalPath(value: string): string {
  if (value === "" || value.includes("\0") || value.includes("\\") || value.startsWith("/"))
    throw new UntrackedSelectionError(`invalid logical path ${goQuoteStr(value)}`);
  const parts: string[] = [];
  for (const part of value.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  const cleaned = parts.join("/");
  if (cleaned === "" || cleaned !== value)
    throw new UntrackedSelectionError(`logical path is not canonical: ${goQuoteStr(value)}`);
  return cleaned;
}

/** canonicalPaths: every path canonical, sorted, no duplicates. */
export function canonicalPathList(values: readonly string[]): string[] {
  const sorted = values.map(canonicalLogicalPath).sort();
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i] === sorted[i - 1])
      throw new UntrackedSelectionError(`duplicate intended-untracked path ${goQuoteStr(sorted[i]!)}`);
  return sorted;
}

/** The live untracked inventory: `git ls-files --others --exclude-standard -z`, nested repositories left out. */
export function untrackedInventory(repo: RepositoryIdentity): UntrackedInventory {
  const records = nulRecords(git(repo.root, ["ls-files", "--others", "--exclude-standard", "-z"]));
  // A bare directory entry is a nested repository git will not look into (a linked worktree's checkout or a foreign
  // clone); gentle-ai excludes registered worktrees and refuses foreign clones (inferred: both are left out here).
  const paths = canonicalPathList(records.filter((r) => !r.endsWith("/")));
  return { paths, digest: untrackedInventoryDigest(paths) };
}

/** reviewIntendedUntrackedScopeForTarget against the repository's live inventory. */
export function untrackedScope(repo: RepositoryIdentity, declaration: UntrackedDeclaration): UntrackedScope {
  return untrackedScopeFor(untrackedInventory(repo), declaration);
}

/**
 * reviewIntendedUntrackedScopeForTarget (review_intended_untracked.go:47) over an inventory: an undeclared scope
 * over an empty inventory needs nothing; a declaration must be complete, consistent and match the inventory
 * (ValidateIntendedUntrackedSelection, snapshot.go:698). Throws UntrackedSelectionError with gentle-ai's text.
 */
export function untrackedScopeFor(inventory: UntrackedInventory, declaration: UntrackedDeclaration): UntrackedScope {
  const declared =
    declaration.scope !== undefined || declaration.intended.length > 0 || declaration.expectedInventory !== undefined;
  const base = { inventory: inventory.paths, intended: [] as string[], digest: inventory.digest, declared };
  if (!declared) return { ...base, needsSelection: inventory.paths.length > 0 };
  if (declaration.scope === undefined || declaration.expectedInventory === undefined)
    throw new UntrackedSelectionError(
      "untracked selection requires --untracked-scope and --expected-untracked-inventory; rerun `gentle-ai review status --next-transition`",
    );
  switch (declaration.scope) {
    case "exclude":
      if (declaration.intended.length > 0)
        throw new UntrackedSelectionError(
          "--untracked-scope=exclude does not accept --intended-untracked; rerun `gentle-ai review start --untracked-scope=select`",
        );
      break;
    case "select":
      if (declaration.intended.length === 0)
        throw new UntrackedSelectionError(
          "--untracked-scope=select requires at least one --intended-untracked; rerun `gentle-ai review start --untracked-scope=exclude`",
        );
      break;
    default:
      throw new UntrackedSelectionError(
        `--untracked-scope must be exclude or select, got ${goQuoteStr(declaration.scope)}; rerun \`gentle-ai review status --next-transition\``,
      );
  }
  if (declaration.expectedInventory !== inventory.digest)
    throw new UntrackedSelectionError(
      "untracked inventory changed; rerun `gentle-ai review status --next-transition` before selecting paths",
    );
  const selected = canonicalPathList(declaration.intended);
  const eligible = new Set(inventory.paths);
  for (const p of selected)
    if (!eligible.has(p))
      throw new UntrackedSelectionError(
        `intended-untracked path ${goQuoteStr(p)} is not in the current eligible inventory; rerun \`gentle-ai review status --next-transition\``,
      );
  return { ...base, intended: selected, digest: declaration.expectedInventory, needsSelection: false };
}

/** reviewIntendedUntrackedSelectionRequired: START's refusal while the inventory is undeclared. */
export function selectionRequiredText(digest: string): string {
  return `untracked files require an explicit declaration; run \`gentle-ai review status --next-transition\`, then rerun with --untracked-scope=exclude --expected-untracked-inventory=${digest} or --untracked-scope=select --intended-untracked=<repo-relative-path> --expected-untracked-inventory=${digest}`;
}

/** reviewStartIntendedUntrackedArguments: the declaration as START arguments (name/value pairs, in order). */
export function declarationArguments(scope: UntrackedScope): Array<{ name: string; value: string }> {
  if (!scope.declared) return [];
  const args = [
    { name: "untracked-scope", value: scope.intended.length > 0 ? "select" : "exclude" },
    { name: "expected-untracked-inventory", value: scope.digest },
  ];
  for (const p of scope.intended) args.push({ name: "intended-untracked", value: p });
  return args;
}
