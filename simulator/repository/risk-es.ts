// The Spanish consent wording (`--locale es`): cli/review_consent_contract.go reviewConsentEnvelopeTextFor and its
// reviewConsentSpanish* helpers, identical at 301fb2ad and fb55ef7b. The English wording lives in risk.ts.
import type { RiskAssessment, RiskReason, RiskSignal } from "./risk.ts";

const MEDIUM_REASON_ES =
  "este cambio no es documentación puramente pasiva, por lo que recibe una revisión consolidada.";

/** reviewConsentSpanishSignalSubject, less the two signals no reason carries (risk.ts RiskSignal). */
function signalSubject(signal: RiskSignal | undefined): string {
  switch (signal) {
    case "auth":
      return "autenticación";
    case "security":
      return "seguridad";
    case "payments":
      return "pagos";
    case "permissions":
      return "permisos";
    case "update":
      return "la ruta de actualización";
    case "shell_process":
      return "ejecución de shell o procesos";
    default:
      return "un área sensible";
  }
}

function evidenceSubject(reason: RiskReason): string {
  switch (reason.code) {
    case "service_token":
      return "credenciales de servicio";
    case "shell_source":
      return "scripts de shell";
    case "process_boundary":
    case "process_scan_limit":
      return "código que inicia otros procesos";
    case "executable_mode":
      return "un cambio de permiso ejecutable";
    case "executable_change":
      return "un cambio ejecutable";
    case "configuration_change":
      return "un cambio de configuración";
    case "hot_path":
      return signalSubject(reason.signal);
    default:
      return "";
  }
}

/** reviewConsentSpanishEvidencePhrases. */
function evidencePhrases(reasons: readonly RiskReason[]): string[] {
  const phrases: string[] = [];
  for (const r of reasons) {
    const path = (r.path ?? "").trim();
    if (r.code === "empty_content") {
      if (path !== "") phrases.push(`${r.path}, un archivo vacío cuyo tipo no puede determinarse por su contenido`);
      continue;
    }
    const subject = evidenceSubject(r);
    const phrase = subject === "" || path === "" ? subject : `${subject} en ${r.path}`;
    if (phrase !== "") phrases.push(phrase);
  }
  return phrases;
}

function joinedEvidence(reasons: readonly RiskReason[]): string {
  const p = evidencePhrases(reasons);
  if (p.length === 0) return "";
  if (p.length === 1) return p[0]!;
  if (p.length === 2) return `${p[0]} y ${p[1]}`;
  return `${p[0]}, ${p[1]} y ${p.length - 2} más`;
}

/** reviewConsentSpanishReason. */
export function consentReasonEs(assessment: RiskAssessment): string {
  const evidence = joinedEvidence(assessment.reasons);
  if (assessment.level !== "high")
    return evidence === "" ? MEDIUM_REASON_ES : `${MEDIUM_REASON_ES} La revisión parte de ${evidence}.`;
  return evidence === ""
    ? "este cambio toca algo sensible, por lo que recibe una revisión más profunda."
    : `este cambio recibe una revisión más profunda porque afecta a ${evidence}.`;
}

/** reviewConsentSpanishRiskEvidence (nil for low risk, which asks nothing). */
export function riskEvidenceEs(assessment: RiskAssessment): string[] | undefined {
  if (assessment.level === "high") return evidencePhrases(assessment.reasons);
  if (assessment.level === "medium") return [MEDIUM_REASON_ES, ...evidencePhrases(assessment.reasons)];
  return undefined;
}

/** The fixed Spanish sentences of the consent envelope. */
export const CONSENT_ES = {
  headline: "Gentle AI puede revisar este cambio antes de que lo des por terminado.",
  value: "La revisión lleva un poco más de tiempo y hace que el resultado sea considerablemente más seguro.",
  grantedLabel: "Ejecutar la revisión ahora",
  grantedEffect:
    "Revisa ahora este candidato congelado exacto; no se otorga nada para candidatos posteriores, por lo que cada candidato posterior de riesgo medio o alto vuelve a pedir confirmación.",
  declinedLabel: "Ahora no, solo esta vez",
  declinedEffect:
    "Omite la revisión solo para este candidato exacto; no se crea ninguna línea de revisión ni recibo, y la entrega ordinaria queda sin administrar por elección del candidato. El siguiente candidato vuelve a pedir confirmación. No es el interruptor de apagado.",
  offPathNote: "Para desactivar las revisiones de forma permanente, ejecuta 'gentle-ai review mode disable'.",
} as const;
