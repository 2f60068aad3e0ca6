// The fidelity check: sweep the simulator, judge every document, and render the verdict one line per kind.
import { PROFILES, type Profile } from "../../simulator/scenario/schema.ts";
import { againstMirror, againstTree, checkDocuments } from "./check.ts";
import { loadContractsTree } from "./contracts-tree.ts";
import { FIDELITY_REPORT_SCHEMA_ID, type FidelityReport, type KindVerdict } from "./report-schema.ts";
import { shippedScenarios, sweepSimulator, type SweepScenario, type SweptDocument } from "./sweep.ts";

/** What to check and against what. */
export interface FidelityOptions {
  /** A gentle-ai checkout or unpacked source release; undefined: our zod mirror is the judge. */
  readonly contracts?: string;
  readonly profiles?: readonly Profile[];
  readonly scenarios?: readonly SweepScenario[];
  readonly concurrency?: number;
  readonly onLane?: (done: number, total: number) => void;
  /** Sees every swept document (tests look inside them). */
  readonly onDocument?: (document: SweptDocument) => void;
}

/**
 * Why a shipped scenario is not swept: `identities: "bare"` models gentle-pi #279 as reported (evidence records with
 * bare 64-hex identities), which gentle-ai's source and schema never print; it exists to reproduce the report.
 */
export function unsweptReason(scenario: SweepScenario): string | undefined {
  return scenario.json.identities === "bare"
    ? 'identities "bare" models gentle-pi #279 as reported, not the source'
    : undefined;
}

/** Sweeps the simulator and judges every document it prints (a bad tree throws ContractsTreeError before any call). */
export async function checkFidelity(options: FidelityOptions = {}): Promise<FidelityReport> {
  const tree = options.contracts === undefined ? undefined : loadContractsTree(options.contracts);
  const profiles = [...(options.profiles ?? PROFILES)];
  const candidates = options.scenarios ?? shippedScenarios();
  const skipped = candidates.flatMap((s) => {
    const reason = unsweptReason(s);
    return reason === undefined ? [] : [{ scenario: s.name, reason }];
  });
  const scenarios = candidates.filter((s) => unsweptReason(s) === undefined);
  const documents = await sweepSimulator({
    profiles,
    scenarios,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.onLane ? { onLane: options.onLane } : {}),
  });
  if (options.onDocument) documents.forEach(options.onDocument);
  const kinds = checkDocuments(documents, tree ? againstTree(tree) : againstMirror);
  return {
    schema: FIDELITY_REPORT_SCHEMA_ID,
    contracts: tree ? tree.root : "mirror",
    profiles,
    scenarios: scenarios.map((s) => s.name),
    skipped,
    documents: documents.length,
    verdict: kinds.some((k) => k.status === "invalid") ? "invalid" : "valid",
    kinds,
  };
}

const SHOWN_DOCUMENTS = 3;
const SHOWN_ISSUES = 3;

/** A call with every long `--flag=value` value cut to its first characters (the JSON report keeps it whole). */
function shortCall(call: string): string {
  return call.replace(/=([^\s]{16})[^\s]{6,}/g, "=$1…");
}

function kindLine(k: KindVerdict, width: number): string {
  const against = k.schema ?? (k.note === undefined ? "(unknown kind)" : "(no published schema: our mirror)");
  const counts = k.status === "invalid" ? `${k.invalid.length} of ${k.documents} invalid` : `${k.documents} valid`;
  return `${k.status === "valid" ? "valid  " : "INVALID"}  ${k.kind.padEnd(width)}  ${against}  ${counts}\n`;
}

/** The human report: one line per document kind; under an invalid kind, its first documents and issues. */
export function renderFidelityReport(report: FidelityReport): string {
  const width = Math.max(0, ...report.kinds.map((k) => k.kind.length));
  let out = `fidelity: ${report.documents} documents from ${report.scenarios.length} scenarios × ${report.profiles.length} profiles (${report.profiles.join(", ")}), against ${report.contracts}\n`;
  for (const s of report.skipped) out += `skipped  scenario ${s.scenario}: ${s.reason}\n`;
  for (const k of report.kinds) {
    out += kindLine(k, width);
    for (const d of k.invalid.slice(0, SHOWN_DOCUMENTS)) {
      out += `    ${d.scenario} ${d.profile}: ${shortCall(d.call)}\n`;
      for (const i of d.issues.slice(0, SHOWN_ISSUES)) out += `      ${i.path}: ${i.message}\n`;
      if (d.issues.length > SHOWN_ISSUES) out += `      … ${d.issues.length - SHOWN_ISSUES} more issues\n`;
    }
    if (k.invalid.length > SHOWN_DOCUMENTS)
      out += `    … ${k.invalid.length - SHOWN_DOCUMENTS} more invalid documents (--json has them all)\n`;
  }
  const bad = report.kinds.filter((k) => k.status === "invalid").length;
  out +=
    bad === 0
      ? `result: all ${report.kinds.length} document kinds valid\n`
      : `result: ${bad} of ${report.kinds.length} document kinds invalid\n`;
  return out;
}
