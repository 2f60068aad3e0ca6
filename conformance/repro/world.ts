// What a phase's world lines say, resolved: the scenario the simulator and the fake pi read, and, for a run against
// another gentle-ai, why the phase can only run against the simulator.
import { pinsLineage } from "../../simulator/scenario/loaded.ts";
import type { Phase } from "./format.ts";
import type { Profile } from "../../simulator/scenario/schema.ts";

/** The scenario a phase's world gives the simulator and the fake pi; `profile` overrides the script's. */
export function phaseScenario(phase: Phase, profile?: Profile): Record<string, unknown> {
  const base: Record<string, unknown> = phase.scenario
    ? structuredClone(phase.scenario.resolved)
    : { name: "repository" };
  const chosen = profile ?? phase.profile;
  if (chosen !== undefined) base["profile"] = chosen;
  return base;
}

/** Why a phase cannot run against a gentle-ai other than the simulator, or undefined when it can. */
export function simulatorOnlyReason(phase: Phase): string | undefined {
  const scenario = phase.scenario?.resolved;
  if (scenario !== undefined && pinsLineage(scenario))
    return "its scenario seeds a lineage, which only the simulator can";
  const faults = Array.isArray(scenario?.["faults"]) ? (scenario["faults"] as { program?: unknown }[]) : [];
  if (faults.some((f) => f.program === "gentle-ai")) return "its scenario injects gentle-ai faults";
  if (phase.steps.some((s) => s.options["status-scenario"] !== undefined))
    return "a step swaps the simulator's scenario (status-scenario=)";
  return undefined;
}

/** A one-line description of a phase's world for the report, in the profile the run chose (else the phase's own). */
export function describeWorld(phase: Phase, profile?: Profile): string {
  const parts: string[] = [];
  const sc = phase.scenario;
  if (sc) {
    const over = Object.entries(sc.overrides)
      .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(" ");
    parts.push(`scenario ${"section" in sc.source ? sc.source.section : sc.source.path}${over ? " " + over : ""}`);
  }
  if (phase.repo) parts.push(`repo (${phase.repo.committed.length} committed, ${phase.repo.changed.length} changed)`);
  const r = phaseScenario(phase, profile);
  return `${parts.join(", ")} (profile ${String(r["profile"] ?? "2.4.0")}, identities ${String(r["identities"] ?? "prefixed")})`;
}
