// The receipt-driven-development kill switch where gentle-ai keeps it (cli/review_mode.go,
// reviewtransaction/rdd_mode.go): the global mode in `$HOME/.gentle-ai/state.json`, the clone-local off-only
// override as immutable generations under `<git-common-dir>/gentle-ai/review-mode/rar-authority/v1/rdd-mode/`,
// mirrored to the pre-relocation `review-transactions/…` location older builds read.
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../platform/sha256.ts";
import { goMarshal, type GoJson } from "../go/go-json.ts";
import { writeFileAtomic } from "../state/atomic-file.ts";
import { withLock } from "../state/lock.ts";
import { goQuoteStr } from "../go/go-quote.ts";
import type { RepositoryIdentity } from "./locate.ts";

export type ModeValue = "" | "on" | "off";
/**
 * The deciding source; "" only in the zero status a failed clone-scope write prints (review_mode.go applyReviewMode).
 */
export type ModeSource = "default" | "global" | "clone_local" | "";

/** RDDModeStatus, in Go field order (revision and reach omitted when empty). */
export interface ModeStatus {
  readonly schema: "gentle-ai.rdd-mode-status/v1";
  readonly global: ModeValue;
  /** A clone may only switch review off (an override never requires it). */
  readonly clone_local: "" | "off";
  readonly effective: "on" | "off";
  readonly source: ModeSource;
  readonly revision?: string;
  readonly reach?: "machine" | "this_build";
}

/** A kill-switch refusal; `status` is the projection gentle-ai still prints beside it. */
export class ModeError extends Error {
  override readonly name = "ModeError";
  constructor(
    message: string,
    readonly status: ModeStatus,
  ) {
    super(message);
  }
}

const STATUS_SCHEMA = "gentle-ai.rdd-mode-status/v1";
const OVERRIDE_SCHEMA = "gentle-ai.rdd-mode-override/v1";
const DIGEST_DOMAIN = "gentle-ai.rdd-mode-override-digest/v1";

/** failedClosedRDDModeStatus. */
function failedClosed(source: ModeSource): ModeStatus {
  return { schema: STATUS_SCHEMA, global: "", clone_local: "", effective: "off", source };
}

/** `$HOME/.gentle-ai/state.json` (state.Path). */
export function globalStatePath(home: string): string {
  return join(home, ".gentle-ai", "state.json");
}

function homeOf(env: Readonly<Record<string, string | undefined>>): string {
  const home = env.HOME;
  if (home === undefined || home === "")
    throw new ModeError("resolve user home directory: $HOME is not defined", failedClosed("default"));
  return home;
}

function normalize(value: string, source: ModeSource): ModeValue {
  const v = value.trim();
  if (v === "" || v === "on" || v === "off") return v;
  throw new ModeError(`unknown review mode value: ${goQuoteStr(value)}`, failedClosed(source));
}

function readState(home: string): Record<string, unknown> | undefined {
  const path = globalStatePath(home);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    return parsed as Record<string, unknown>;
  } catch (error) {
    // (inferred) Go's json error text differs; the prefix is gentle-ai's.
    throw new ModeError(`read global review mode: ${(error as Error).message}`, failedClosed("default"));
  }
}

/** readGlobalRDDMode: the raw global value ("" when the user never chose). */
export function readGlobalMode(env: Readonly<Record<string, string | undefined>>): string {
  const state = readState(homeOf(env));
  const value = state?.["rdd_mode"];
  return typeof value === "string" ? value : "";
}

/** RFC3339Nano in UTC, trailing fractional zeros trimmed, as Go formats time.Now().UTC(). */
function rfc3339Nano(date: Date): string {
  const iso = date.toISOString(); // 2026-01-02T03:04:05.678Z
  const [whole, frac] = iso.slice(0, -1).split(".") as [string, string];
  const trimmed = frac.replace(/0+$/, "");
  return `${whole}${trimmed === "" ? "" : "." + trimmed}Z`;
}

/** writeGlobalRDDMode: records `rdd_mode` and `rdd_mode_recorded_at` in the user's install state. */
export function writeGlobalMode(
  env: Readonly<Record<string, string | undefined>>,
  operation: "enable" | "disable",
): void {
  const home = homeOf(env);
  // A fresh install state has only the never-omitted `installed_agents` (state.InstallState); other keys the file
  // already holds are kept in place (inferred: Go rewrites the whole struct in its own field order).
  const state: Record<string, unknown> = readState(home) ?? { installed_agents: null };
  state["rdd_mode"] = operation === "enable" ? "on" : "off";
  state["rdd_mode_recorded_at"] = rfc3339Nano(new Date());
  mkdirSync(join(home, ".gentle-ai"), { recursive: true, mode: 0o755 });
  writeFileAtomic(globalStatePath(home), JSON.stringify(state, null, 2) + "\n");
}

/** The clone-local override record (rddModeOverrideRecord), in Go field order. */
interface OverrideRecord {
  readonly schema: string;
  readonly generation: number;
  readonly previous_revision?: string;
  readonly mode: "off" | "inherit";
  readonly recorded_at: string;
  readonly revision: string;
}

function switchRoot(repo: RepositoryIdentity): string {
  return join(repo.gitCommonDir, "gentle-ai", "review-mode", "rar-authority", "v1", "rdd-mode");
}

function legacyRoot(repo: RepositoryIdentity): string {
  return join(repo.gitCommonDir, "gentle-ai", "review-transactions", "rar-authority", "v1", "rdd-mode");
}

function generationName(generation: number): string {
  return `gen-${String(generation).padStart(10, "0")}.json`;
}

function headGeneration(dir: string): number {
  if (!existsSync(dir)) return 0;
  let head = 0;
  for (const name of readdirSync(dir)) {
    const m = /^gen-(\d{10})\.json$/.exec(name);
    if (m) head = Math.max(head, Number(m[1]));
  }
  return head;
}

function digest(record: OverrideRecord): string {
  const preimage = goMarshal(recordJson({ ...record, revision: "" }));
  return "sha256:" + sha256Hex(`${DIGEST_DOMAIN}\0${preimage}`);
}

function recordJson(r: OverrideRecord): GoJson {
  return {
    schema: r.schema,
    generation: r.generation,
    previous_revision: r.previous_revision || undefined,
    mode: r.mode,
    recorded_at: r.recorded_at,
    revision: r.revision,
  };
}

function corrupt(detail: string): ModeError {
  return new ModeError(`clone-local review mode override is corrupt: ${detail}`, failedClosed("clone_local"));
}

function readHead(dir: string): OverrideRecord | undefined {
  const head = headGeneration(dir);
  if (head === 0) return undefined;
  let parsed: OverrideRecord;
  try {
    parsed = JSON.parse(readFileSync(join(dir, generationName(head)), "utf8")) as OverrideRecord;
  } catch (error) {
    throw corrupt(`read generation ${head}: ${(error as Error).message}`);
  }
  if (
    parsed.schema !== OVERRIDE_SCHEMA ||
    (parsed.mode !== "off" && parsed.mode !== "inherit") ||
    parsed.revision !== digest(parsed)
  )
    throw corrupt("clone-local review mode revision does not match its content");
  if (parsed.generation !== head) throw corrupt(`generation ${head} is stored as ${parsed.generation}`);
  return parsed;
}

/** readCloneLocalRDDOverride: the switch root's head, else a pre-relocation head, else none. */
function readOverride(repo: RepositoryIdentity): OverrideRecord | undefined {
  if (headGeneration(switchRoot(repo)) > 0) return readHead(switchRoot(repo));
  return headGeneration(legacyRoot(repo)) > 0 ? readHead(legacyRoot(repo)) : undefined;
}

/** rddModeStatus: any off wins; only an explicit global on turns reviews on. */
function statusOf(
  global: ModeValue,
  override: OverrideRecord | undefined,
  reach?: "machine" | "this_build",
): ModeStatus {
  const cloneLocal = override?.mode === "off" ? "off" : "";
  let effective: "on" | "off" = "off";
  let source: ModeSource = "default";
  if (cloneLocal === "off") source = "clone_local";
  else if (global === "off") source = "global";
  else if (global === "on") [effective, source] = ["on", "global"];
  return {
    schema: STATUS_SCHEMA,
    global,
    clone_local: cloneLocal,
    effective,
    source,
    ...(override ? { revision: override.revision } : {}),
    ...(reach ? { reach } : {}),
  };
}

/** ResolveRDDMode: the read-only projection of both sources. */
export function resolveMode(repo: RepositoryIdentity, globalValue: string): ModeStatus {
  const global = normalize(globalValue, "global");
  return statusOf(global, readOverride(repo));
}

/** ResolveRDDMode for a path that does not exist: its clone holds no override (an fs.ErrNotExist reads as none). */
export function resolveModeWithoutClone(globalValue: string): ModeStatus {
  return statusOf(normalize(globalValue, "global"), undefined);
}

/** The effective mode for this clone with the caller's HOME (status is read-only: nothing is created). */
export function modeStatus(repo: RepositoryIdentity, env: Readonly<Record<string, string | undefined>>): ModeStatus {
  return resolveMode(repo, readGlobalMode(env));
}

function publish(dir: string, record: OverrideRecord): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, generationName(record.generation));
  // Immutable no-replace publish (rar_path_safety.go publishPrivateRARImmutable): the whole record goes to a temp
  // file first and is then hard-linked into its slot, so a reader never sees a half-written generation and a lost
  // race can never overwrite a published one (link fails with EEXIST).
  const temp = join(dir, `.publish-${process.pid}-${process.hrtime.bigint()}.tmp`);
  writeFileSync(temp, goMarshal(recordJson(record)) + "\n", { flag: "wx", mode: 0o600 });
  try {
    linkSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** SetCloneLocalRDDMode: publishes this clone's off-only override (off) or clears it (unset). */
export function setCloneLocalMode(
  repo: RepositoryIdentity,
  mode: "off" | "unset",
  expectedRevision: string,
  globalValue: string,
): ModeStatus {
  const persisted = mode === "off" ? "off" : "inherit";
  const global = normalize(globalValue, "global");
  const current = statusOf(global, readOverride(repo));
  if (expectedRevision.trim() !== (current.revision ?? ""))
    throw new ModeError(
      `clone-local review mode revision mismatch: expected ${goQuoteStr(expectedRevision)} but the clone-local head is ${goQuoteStr(current.revision ?? "")}`,
      failedClosed("clone_local"),
    );
  if (mode === "unset" && global === "off")
    throw new ModeError(
      "receipt-driven development is disabled: start is rejected because the global mode source keeps it off; turn reviews on with gentle-ai review mode enable --scope=global",
      current,
    );
  const alreadyDecided =
    (mode === "off" && current.clone_local === "off") || (mode === "unset" && current.clone_local === "");
  if (alreadyDecided && current.revision === undefined) return current;
  const root = switchRoot(repo);
  const legacy = legacyRoot(repo);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  mkdirSync(legacy, { recursive: true, mode: 0o700 });
  return withLock(root, "LOCK", () =>
    withLock(legacy, "LOCK", () => {
      let head = readHead(root);
      const mirrorHead = headGeneration(legacy);
      const mirrorRecord = readHead(legacy);
      if (head === undefined && mirrorRecord !== undefined) head = mirrorRecord;
      const currentRevision = head?.revision ?? "";
      if (expectedRevision.trim() !== currentRevision)
        throw new ModeError(
          `clone-local review mode revision mismatch: expected ${goQuoteStr(expectedRevision)} but the clone-local head is ${goQuoteStr(currentRevision)}`,
          failedClosed("clone_local"),
        );
      const mirrorDecides = mirrorRecord === undefined ? persisted === "inherit" : mirrorRecord.mode === persisted;
      if (alreadyDecided && mirrorDecides) return statusOf(global, head, "machine");
      const generation = Math.max((head?.generation ?? 0) + 1, mirrorHead + 1);
      const draft: OverrideRecord = {
        schema: OVERRIDE_SCHEMA,
        generation,
        previous_revision: currentRevision || undefined,
        mode: persisted,
        recorded_at: rfc3339Nano(new Date()),
        revision: "",
      };
      const record = { ...draft, revision: digest(draft) };
      publish(root, record);
      publish(legacy, record);
      return statusOf(global, record, "machine");
    }),
  );
}

/** The disabled-switch refusal a start or mutation gets (RDDDisabledError.Error). */
export function disabledText(operation: "start" | "mutate", source: ModeSource): string {
  const subject = operation === "mutate" ? "advancing an existing review" : "start";
  let message = `receipt-driven development is disabled: ${subject} is rejected because the ${source} mode source keeps it off`;
  if (operation === "mutate") message += "; the review is frozen, not discarded";
  const enable =
    source === "clone_local"
      ? "gentle-ai review mode enable --scope=global then gentle-ai review mode enable --scope=clone"
      : "gentle-ai review mode enable --scope=global";
  return operation === "mutate"
    ? `${message}; turn reviews on with ${enable} to continue it from where it stopped`
    : `${message}; turn reviews on with ${enable}`;
}
