// The review tier of a frozen candidate, from evidence alone (reviewtransaction/risk.go AssessSnapshotRisk,
// ClassifyRisk, deriveSnapshotRiskReasons, processBoundaryRiskReasons), and the human evidence phrases the consent
// question and START speak (cli/review_mode.go reviewConsentEvidencePhrase, reviewConsentReason).
import { extname, basename } from "node:path";
import { git, runGit, nulRecords } from "./git.ts";
import type { RepositoryIdentity } from "./locate.ts";
import type { Snapshot } from "./snapshot.ts";
import { countChangedLines, isGeneratedGoldenPath, type DiffStat } from "./manifest.ts";
import type { StartLens, StartRiskLevel, StartRiskReason } from "../contract/start.ts";

// The tier and its reasons are start/v3's formats (contract/start.ts): START prints them as they are.
export type RiskLevel = StartRiskLevel;
/**
 * The signals a risk reason carries. risk.go also declares data_exposure and data_loss, but no reason is built with
 * them (hot paths give auth, update, security, payments; the other reasons their own), so START never prints them.
 */
export type RiskSignal = NonNullable<StartRiskReason["signal"]>;
export type RiskReasonCode = StartRiskReason["code"];
export type RiskReason = Readonly<StartRiskReason>;

/** The tier, the authored size, and the canonical reasons of one candidate. */
export interface RiskAssessment {
  readonly level: RiskLevel;
  readonly changedLines: number;
  readonly reasons: readonly RiskReason[];
}

const SCAN_LIMIT = 8 << 20;
const SEMANTIC_SOURCE = new Set([
  ".c",
  ".cc",
  ".cpp",
  ".cs",
  ".go",
  ".h",
  ".hpp",
  ".java",
  ".js",
  ".jsx",
  ".kt",
  ".kts",
  ".php",
  ".py",
  ".rb",
  ".rs",
  ".sh",
  ".bash",
  ".zsh",
  ".ts",
  ".tsx",
]);
const AUTHORITY_PATHS = new Set([
  "internal/reviewtransaction/compact.go",
  "internal/reviewtransaction/transaction.go",
  "internal/reviewtransaction/compact_store.go",
  "internal/reviewtransaction/store.go",
  "internal/reviewtransaction/compact_gate.go",
  "internal/reviewtransaction/gate.go",
]);

function ext(path: string): string {
  return extname(path).toLowerCase();
}

/** isConfigurationReviewPath. */
export function isConfigurationPath(path: string): boolean {
  const base = basename(path).toLowerCase();
  if (base === ".env" || base.startsWith(".env.")) return true;
  if (
    [
      "go.mod",
      "go.sum",
      "package.json",
      "package-lock.json",
      "pnpm-lock.yaml",
      "yarn.lock",
      "dockerfile",
      "makefile",
    ].includes(base)
  )
    return true;
  return [".json", ".yaml", ".yml", ".toml", ".ini", ".env"].includes(ext(path));
}

function isShellPath(path: string): boolean {
  const e = ext(path);
  if (e === ".sh" || e === ".bash" || e === ".zsh") return true;
  return (e === ".yml" || e === ".yaml") && path.startsWith(".github/workflows/");
}

function hasExcludedSegment(path: string): boolean {
  return path
    .split("/")
    .some((s) => ["docs", "testdata", "fixture", "fixtures", "__fixtures__"].includes(s.toLowerCase()));
}

function isInspectable(s: DiffStat): boolean {
  return s.additions + s.deletions !== 0 && !s.binary && !s.modeOnly && !s.generated && !isGeneratedGoldenPath(s.path);
}

function isSemanticEligible(s: DiffStat): boolean {
  if (!isInspectable(s) || hasExcludedSegment(s.path)) return false;
  if (basename(s.path).toLowerCase().startsWith("readme")) return false;
  return SEMANTIC_SOURCE.has(ext(s.path)) || isConfigurationPath(s.path);
}

function isContentScanEligible(s: DiffStat): boolean {
  if (!isInspectable(s) || hasExcludedSegment(s.path)) return false;
  const e = ext(s.path);
  return SEMANTIC_SOURCE.has(e) || e === ".txt" || isConfigurationPath(s.path);
}

function stripSemanticExtension(segment: string): string {
  const e = extname(segment);
  return SEMANTIC_SOURCE.has(e.toLowerCase()) || isConfigurationPath(segment)
    ? segment.slice(0, segment.length - e.length)
    : segment;
}

function isServiceTokenPath(path: string): boolean {
  return path.split("/").some((segment) => {
    const tokens = stripSemanticExtension(segment)
      .toLowerCase()
      .split(/[-_]/)
      .filter((t) => t !== "");
    return tokens.some((t, i) => t === "service" && tokens[i + 1] === "token");
  });
}

function executableModeChanged(oldMode: string, newMode: string): boolean {
  if (oldMode === "" || newMode === "" || !/^[0-7]+$/.test(oldMode) || !/^[0-7]+$/.test(newMode)) return false;
  return (parseInt(oldMode, 8) & 0o111) !== (parseInt(newMode, 8) & 0o111);
}

function hotPathSignals(path: string): RiskSignal[] {
  const signals: RiskSignal[] = [];
  if (AUTHORITY_PATHS.has(path)) signals.push("auth");
  for (const token of path.toLowerCase().split(/[/\\.\-_]/)) {
    if (token === "auth") signals.push("auth");
    else if (token === "update") signals.push("update");
    else if (token === "security" || token === "webhook") signals.push("security");
    else if (token === "payments") signals.push("payments");
  }
  return [...new Set(signals)].sort();
}

function isOperationalMarkdown(path: string): boolean {
  const lower = path.toLowerCase();
  const segments = lower.split("/");
  if (
    ["agents.md", "claude.md", "gemini.md", "kimi.md", "skill.md", "copilot-instructions.md"].includes(basename(lower))
  )
    return true;
  return segments.some((segment, index) => {
    if ([".agent", ".agents", ".claude", ".codex", ".cursor", ".opencode", "openspec", "runtime"].includes(segment))
      return true;
    if (index === 1 && segments[0] === "internal" && ["runtime", "assets", "templates"].includes(segment)) return true;
    const name = segment.slice(0, segment.length - extname(segment).length);
    return name
      .split(/[^a-z0-9]/)
      .some((t) =>
        [
          "agent",
          "agents",
          "skill",
          "skills",
          "prompt",
          "prompts",
          "instruction",
          "instructions",
          "orchestrator",
          "orchestrators",
          "workflow",
          "workflows",
        ].includes(t),
      );
  });
}

function isPassiveDocumentExtension(path: string): boolean {
  const e = ext(path);
  if (e === ".md") return !isOperationalMarkdown(path);
  return [".mdx", ".rst", ".adoc", ".png", ".jpg", ".jpeg", ".gif"].includes(e);
}

function isPassiveCandidatePath(path: string): boolean {
  if (!isPassiveDocumentExtension(path) || isConfigurationPath(path)) return false;
  const lower = path.toLowerCase();
  if (lower.startsWith("internal/assets/")) return false;
  const base = basename(lower);
  if (
    [
      "agents.md",
      "claude.md",
      "gemini.md",
      "kimi.md",
      "soul.md",
      "tools.md",
      "skill.md",
      "copilot-instructions.md",
    ].includes(base)
  )
    return false;
  const blocked = [
    "agent",
    "agents",
    "command",
    "commands",
    "prompt",
    "prompts",
    "rule",
    "rules",
    "runtime",
    "runtimes",
    "skill",
    "skills",
    "workflow",
    "workflows",
  ];
  const stem = base.slice(0, base.length - extname(base).length);
  if (stem.split(/[-_. ]/).some((t) => blocked.includes(t))) return false;
  const dirs = [
    ".github",
    ".claude",
    ".codex",
    ".cursor",
    ".gemini",
    ".kiro",
    ".kilo",
    ".opencode",
    ".windsurf",
    ...blocked,
  ];
  return !lower.split("/").some((s) => dirs.includes(s));
}

function isRegularNonExecutable(mode: string): boolean {
  return mode === "" || mode === "000000" || mode === "100644";
}

function isPassiveCandidateStat(s: DiffStat): boolean {
  if (s.binary || s.modeOnly || !isPassiveCandidatePath(s.path)) return false;
  return isRegularNonExecutable(s.oldMode) && isRegularNonExecutable(s.newMode);
}

function isStaticMdx(content: string): boolean {
  let fence = "";
  for (const line of content.split("\n")) {
    const trimmed = line.replace(/^\uFEFF/, "").trim();
    if (fence !== "") {
      if (trimmed.startsWith(fence)) fence = "";
      continue;
    }
    if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
      fence = trimmed.slice(0, 3);
      continue;
    }
    // (inferred) code spans and leading block comments are stripped as risk.go does, more coarsely.
    const prose = trimmed
      .replace(/`[^`]*`/g, "")
      .replace(/^\/\*.*?\*\//, "")
      .trim();
    if (/^(import|export)(?![A-Za-z0-9_$])/.test(prose) || /[{}<]/.test(prose)) return false;
  }
  return true;
}

function isPassiveContent(path: string, content: Buffer): boolean {
  if (content.includes(0)) return false;
  const text = content.toString("utf8");
  if (Buffer.from(text, "utf8").compare(content) !== 0) return false; // not valid UTF-8
  if (text.replace(/^\uFEFF/, "").startsWith("#!")) return false;
  return ext(path) === ".mdx" ? isStaticMdx(text) : true;
}

/** ls-tree -r -l entries (oid, size) of the given paths in one tree. */
function blobs(
  repo: RepositoryIdentity,
  tree: string,
  paths: readonly string[],
): Map<string, { oid: string; size: number }> {
  const out =
    paths.length === 0
      ? Buffer.alloc(0)
      : git(repo.root, ["ls-tree", "-r", "-l", "-z", tree, "--", ...paths.map((p) => ":(literal)" + p)]);
  const map = new Map<string, { oid: string; size: number }>();
  for (const record of nulRecords(out)) {
    const tab = record.indexOf("\t");
    const fields = record.slice(0, tab).trim().split(/\s+/);
    if (tab < 0 || fields.length !== 4) continue;
    map.set(record.slice(tab + 1), { oid: fields[2]!, size: Number(fields[3]) });
  }
  return map;
}

/** activePassiveContentPaths: passive-looking paths whose frozen bytes are not passive. */
function activePassivePaths(repo: RepositoryIdentity, snapshot: Snapshot, stats: readonly DiffStat[]): Set<string> {
  const candidates = stats.filter((s) => !s.generated && isPassiveCandidateStat(s));
  const active = new Set<string>();
  if (candidates.length === 0) return active;
  const paths = candidates.map((s) => s.path);
  const sides = [snapshot.baseTree, snapshot.candidateTree].map((tree) => blobs(repo, tree, paths));
  const scanned = sides.reduce((sum, side) => sum + [...side.values()].reduce((n, b) => n + b.size, 0), 0);
  if (scanned > SCAN_LIMIT) return new Set(paths);
  for (const s of candidates) {
    for (const [side, mode] of [
      [sides[0]!, s.oldMode],
      [sides[1]!, s.newMode],
    ] as const) {
      if (mode === "" || mode === "000000") continue;
      const blob = side.get(s.path);
      if (blob === undefined) continue;
      if (!isPassiveContent(s.path, git(repo.root, ["cat-file", "blob", blob.oid]))) {
        active.add(s.path);
        break;
      }
    }
  }
  return active;
}

const PROCESS_PATTERN = "(^#!)|((^|[^[:alnum:]_])(subprocess|execute_process|exec)([^[:alnum:]_]|$))";

/** processBoundaryRiskReasons: an interpreter directive or a spawn construct in the frozen bytes. */
function processReasons(repo: RepositoryIdentity, snapshot: Snapshot, stats: readonly DiffStat[]): RiskReason[] {
  const paths = stats.filter(isContentScanEligible).map((s) => s.path);
  if (paths.length === 0) return [];
  const reasons: RiskReason[] = [];
  let scanned = 0;
  for (const tree of [snapshot.baseTree, snapshot.candidateTree]) {
    const present: string[] = [];
    for (const [path, blob] of blobs(repo, tree, paths)) {
      scanned += blob.size;
      if (scanned > SCAN_LIMIT) return [{ code: "process_scan_limit", signal: "shell_process", path }];
      present.push(path);
    }
    if (present.length === 0) continue;
    const run = runGit(repo.root, [
      "grep",
      "-I",
      "-l",
      "-z",
      "-i",
      "-E",
      PROCESS_PATTERN,
      tree,
      "--",
      ...present.map((p) => ":(literal)" + p),
    ]);
    for (const match of nulRecords(run.stdout)) {
      const path = match.startsWith(tree + ":") ? match.slice(tree.length + 1) : match;
      if (path !== "") reasons.push({ code: "process_boundary", signal: "shell_process", path });
    }
  }
  return canonicalReasons(reasons);
}

function compareReasons(a: RiskReason, b: RiskReason): number {
  const keys = [
    [a.code, b.code],
    [a.signal ?? "", b.signal ?? ""],
    [a.path ?? "", b.path ?? ""],
    [a.old_mode ?? "", b.old_mode ?? ""],
    [a.new_mode ?? "", b.new_mode ?? ""],
  ] as const;
  for (const [x, y] of keys) if (x !== y) return x < y ? -1 : 1;
  return 0;
}

/** canonicalRiskReasons: sorted, one reason per (code, signal). */
function canonicalReasons(reasons: readonly RiskReason[]): RiskReason[] {
  const seen = new Set<string>();
  return [...reasons].sort(compareReasons).filter((r) => {
    const key = `${r.code}\0${r.signal ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function fallbackReason(stats: readonly DiffStat[], active: ReadonlySet<string>): RiskReason {
  for (const s of stats) {
    if (s.generated) continue;
    if (isConfigurationPath(s.path)) return { code: "configuration_change", path: s.path };
    if (active.has(s.path) || !isPassiveCandidateStat(s)) {
      if (!s.binary && !s.modeOnly && s.additions + s.deletions === 0) return { code: "empty_content", path: s.path };
      return { code: "executable_change", path: s.path };
    }
  }
  return { code: "non_executable_only" };
}

function snapshotReasons(stats: readonly DiffStat[], active: ReadonlySet<string>): RiskReason[] {
  const found: RiskReason[] = [];
  for (const s of stats) {
    if (isSemanticEligible(s)) {
      if (isServiceTokenPath(s.path)) found.push({ code: "service_token", signal: "auth", path: s.path });
      if (isShellPath(s.path)) found.push({ code: "shell_source", signal: "shell_process", path: s.path });
    }
    if (executableModeChanged(s.oldMode, s.newMode))
      found.push({
        code: "executable_mode",
        signal: "permissions",
        path: s.path,
        old_mode: s.oldMode,
        new_mode: s.newMode,
      });
    if (!s.generated)
      for (const signal of hotPathSignals(s.path)) found.push({ code: "hot_path", signal, path: s.path });
  }
  if (found.length === 0) found.push(fallbackReason(stats, active));
  return canonicalReasons(found);
}

/** riskLevelFromReasons: the tier the published reasons explain. */
export function levelFromReasons(reasons: readonly RiskReason[]): RiskLevel {
  if (reasons.some((r) => r.signal !== undefined)) return "high";
  if (reasons.length === 1 && reasons[0]!.code === "non_executable_only") return "low";
  return "medium";
}

/** AssessSnapshotRisk: the tier of a frozen candidate from its stats and frozen bytes. */
export function assessRisk(repo: RepositoryIdentity, snapshot: Snapshot, stats: readonly DiffStat[]): RiskAssessment {
  const changedLines = countChangedLines(stats);
  const active = activePassivePaths(repo, snapshot, stats);
  let reasons = snapshotReasons(stats, active);
  const process = processReasons(repo, snapshot, stats);
  if (process.length > 0) {
    const fallback = new Set<RiskReasonCode>([
      "non_executable_only",
      "configuration_change",
      "executable_change",
      "empty_content",
    ]);
    reasons = canonicalReasons([...reasons.filter((r) => !fallback.has(r.code)), ...process]);
  }
  let onlyPassive = true;
  let touchesConfiguration = false;
  for (const s of stats) {
    if (s.generated) continue;
    onlyPassive = onlyPassive && !active.has(s.path) && isPassiveCandidateStat(s);
    touchesConfiguration = touchesConfiguration || isConfigurationPath(s.path);
  }
  const signalled =
    reasons.some((r) => r.signal !== undefined) || stats.some((s) => !s.generated && hotPathSignals(s.path).length > 0);
  const level: RiskLevel = signalled ? "high" : onlyPassive && !touchesConfiguration ? "low" : "medium";
  const explained = levelFromReasons(reasons);
  if (explained !== level)
    throw new Error(
      `review tier ${JSON.stringify(level)} is not explained by its reasons (${JSON.stringify(explained)})`,
    );
  return { level, changedLines, reasons };
}

/** SelectReviewLenses: none for low, the focus lens for medium, all four (canonical order) for high. */
/** The --focus values, each naming the one lens a medium tier selects (reviewFocusLens). */
export const FOCUSES = ["risk", "resilience", "readability", "reliability"] as const;
export type Focus = (typeof FOCUSES)[number];

/** A --focus value gentle-ai accepts (trimmed). */
export function isFocus(focus: string): focus is Focus {
  return (FOCUSES as readonly string[]).includes(focus);
}

export function selectLenses(level: RiskLevel, focus: Focus = "reliability"): StartLens[] {
  if (level === "low") return [];
  if (level === "high") return ["review-risk", "review-resilience", "review-readability", "review-reliability"];
  return [`review-${focus}`];
}

/** reviewConsentSignalSubject, without its data_exposure and data_loss cases: no reason carries those signals. */
function signalSubject(signal: RiskSignal | undefined): string {
  switch (signal) {
    case "auth":
      return "authentication";
    case "security":
      return "security";
    case "payments":
      return "payments";
    case "permissions":
      return "permissions";
    case "update":
      return "the update path";
    case "shell_process":
      return "shell or process execution";
    default:
      return "a sensitive area";
  }
}

function evidenceSubject(reason: RiskReason): string {
  switch (reason.code) {
    case "service_token":
      return "service credentials";
    case "shell_source":
      return "shell scripting";
    case "process_boundary":
    case "process_scan_limit":
      return "code that starts other processes";
    case "executable_mode":
      return "an executable permission change";
    case "executable_change":
      return "an executable change";
    case "configuration_change":
      return "a configuration change";
    case "hot_path":
      return signalSubject(reason.signal);
    default:
      return "";
  }
}

/** reviewConsentEvidencePhrases: one human phrase per reason that carries speakable evidence. */
export function evidencePhrases(reasons: readonly RiskReason[]): string[] {
  const phrases: string[] = [];
  for (const r of reasons) {
    if (r.code === "empty_content") {
      if ((r.path ?? "").trim() !== "")
        phrases.push(`${r.path}, an empty file whose type cannot be determined from its content`);
      continue;
    }
    const subject = evidenceSubject(r);
    const phrase = subject === "" || (r.path ?? "").trim() === "" ? subject : `${subject} in ${r.path}`;
    if (phrase !== "") phrases.push(phrase);
  }
  return phrases;
}

/** The tier-one sentence both the consent question and START speak. */
export const MEDIUM_REASON = "this change is not purely passive documentation, so it gets one consolidated review.";

function joinedEvidence(reasons: readonly RiskReason[]): string {
  const p = evidencePhrases(reasons);
  if (p.length === 0) return "";
  if (p.length === 1) return p[0]!;
  if (p.length === 2) return `${p[0]} and ${p[1]}`;
  return `${p[0]}, ${p[1]}, and ${p.length - 2} more`;
}

/** reviewConsentReason: why this candidate is reviewed, in the user's terms. */
export function consentReason(assessment: RiskAssessment): string {
  const evidence = joinedEvidence(assessment.reasons);
  if (assessment.level !== "high")
    return evidence === "" ? MEDIUM_REASON : `${MEDIUM_REASON} The review starts from ${evidence}.`;
  return evidence === ""
    ? "this change touches something sensitive, so it gets a deeper review."
    : `this change gets a deeper review because it touches ${evidence}.`;
}

/** reviewConsentRiskEvidence: the risk_evidence list (absent for low risk). */
export function riskEvidence(assessment: RiskAssessment): string[] | undefined {
  if (assessment.level === "high") {
    const phrases = evidencePhrases(assessment.reasons);
    return phrases.length === 0 ? undefined : phrases;
  }
  if (assessment.level === "medium") return [MEDIUM_REASON, ...evidencePhrases(assessment.reasons)];
  return undefined;
}
