// `gentle-ai help` / `--help` / `-h` (internal/app/help.go `printHelp`, identical at 301fb2ad and fb55ef7b): the global
// help, dispatched before system detection, so it needs no repository.
import type { Invocation, Outcome } from "../invocation.ts";
import { traitsOf } from "../profiles.ts";
import { okOutcome } from "../route.ts";
import type { Profile } from "../../scenario/schema.ts";

/**
 * The global help text of a profile: recorded from gentle-ai 2.4.0 built from 301fb2ad; 2.5.0 built from fb55ef7b
 * differs only in the version, and 2.3.0 built from d94dc00c has no `sdd-attempt repair` yet.
 */
export function topHelpText(profile: Profile): string {
  const version = traitsOf(profile).version;
  const attempt = profile === "2.3.0" ? "status|begin|finish|reset" : "status|begin|finish|reset|repair";
  return `gentle-ai — Gentle-AI: Ecosystem, Frameworks, Workflows (${version})

USAGE
  gentle-ai                     Launch interactive TUI
  gentle-ai <command> [flags]

COMMANDS
  install      Configure AI coding agents on this machine
  uninstall    Remove Gentle AI managed files from this machine
  sync         Sync agent configs and skills to current version
  skill-registry refresh
               Refresh .atl/skill-registry.md with cache-hit fast path
  sdd-status [change]
               Print native SDD phase status for orchestrators
  sdd-continue [change]
               Print native SDD dispatcher routing output
  sdd-attempt <acquire|settle> --cwd <repo> --change <change>
               Run bounded normal orchestration without exposing runtime history
  sdd-verify-validate --input <path|-> --requirements <n> --scenarios <n>
               Validate exact verification-report bytes without persistence
  review start [--cwd <repo>] [--base-ref <ref>] [--focus <risk|resilience|readability|reliability>]
  review capture-result --lineage <id> --target <id> --lens <lens> --order <n> --input <review.json>
               Admit one reviewer result; every selected lens needs one
  review inspect-candidate --repository-context <handle> --expected-revision <rev> --lineage <id> --target <id> --lens <lens> --order <n> --operation <operation>
               Read one bounded immutable candidate view through provider authority
  review finalize [--cwd <repo>] [--captured-results] [--evidence <path>]
  review validate --gate <gate> [--cwd <repo>]
               Normal review path; ordinary authority is compact state plus receipt
  review status [--cwd <repo>]
               Read-only inventory of compact-v2 and shipped legacy-v1 authority
  review repair --preflight [--cwd <repo>]
               Classify the complete authority inventory before provider-owned repair
  review mode <enable|disable|status> [--cwd <repo>] [--scope <global|clone>]
               User-owned kill switch; off wins, no clone inherits an override,
               status never mutates, and re-enabling applies to future candidates only
               'review start' asks once per clone before a review that would do work;
               accepting the review records that answer, 'not now' applies to that candidate only
               and persists nothing, turning reviews off for good needs a deliberate
               'gentle-ai review mode disable', and a session without a terminal reviews
               the change and says so instead of asking

COMPATIBILITY COMMANDS
  review-start --cwd <repo> --lineage <id> --policy-file <path>
               Read-only legacy v1 surface; rejects new v1 authority and directs users to 'review start'
  review-step --cwd <repo> --lineage <id> --operation <operation> --input <json>
               Read-only legacy v1 surface; rejects mutation and directs users to 'review finalize'
  review-resume --cwd <repo> --lineage <id>
               Read shipped v1 authority without mutation
  review-bundle-export --cwd <repo> --lineage <id> --out <path>
               Export compact current-state transport or a legacy v1 chain transport
  review-bundle-import --cwd <repo> --bundle <path> [--receipt <path> --request <path>]
               Import compact transport; receipt/request extras apply only to legacy v1 transport
  review-validate --cwd <repo> --receipt <path> (--request <path> | --lineage <id> --gate <gate>)
               Validate legacy v1 authority; native mode needs lineage/gate and derives authority
               Bundle, policy, ledger, fix-delta, evidence, CI, and release flags are optional compatibility or exceptional inputs
  sdd-attempt <${attempt}> --cwd <repo> --change <change>
               Diagnose or explicitly recover the full native runtime-attempt ledger
  update       Check for available updates
  upgrade      Apply updates to managed tools
  restore      Restore a config backup
  doctor       Run ecosystem health diagnostics
  version      Print version

FLAGS
  --help, -h    Show global help; every review subcommand also supports help

Run 'gentle-ai help' for this message.
Documentation: https://github.com/Gentleman-Programming/gentle-ai
`;
}

/** Prints the global help and exits 0. */
export function topHelp(invocation: Invocation): Outcome {
  return okOutcome(topHelpText(invocation.scenario.profile));
}
