// Slot detection (relay reference §12): the exported functions Pi's host calls on every STATUS to decide which collect
// inputs it relays (gentle-pi extensions/gentle-ai.ts: reviewHostRelaySlots, reviewProviderRoleVectorSlots). A wrong
// answer relays an input the provider never offered, or silently drops one it did. Checked in one probe each.
import type { ProbeResult } from "../process/protocol.ts";
import { ALL_PROFILES } from "./common.ts";
import { eq, fail } from "./expect.ts";
import { SkipCheck, type Clause, type ProbeView } from "./types.ts";

const source = "gentle-pi 2.3.0 lib/review-host-relay.ts, called by extensions/gentle-ai.ts; relay reference §12";

interface Arg {
  readonly name: string;
  readonly value: string;
  readonly token?: string;
}

const SUBJECT = `sha256:${"7".repeat(64)}`;
const SUBMISSION = {
  operationToken: "capture-result",
  argumentTokens: ["--lineage=review-1", "--input={{value}}"],
  values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", substitutionLocation: 1 }],
};
const BASE: readonly Arg[] = [
  { name: "lineage", value: "review-1", token: "--lineage=review-1" },
  { name: "lens", value: "review-risk", token: "--lens=review-risk" },
  { name: "order", value: "2", token: "--order=2" },
];
const AGENT: Arg = { name: "agent", value: "pi", token: "--agent=pi" };
const MATERIALIZE: Arg = { name: "materialize", value: "true", token: "--materialize=true" };
const EXECUTE: Arg = { name: "execute", value: "true", token: "--execute=true" };

const input = (
  captureOperation: string,
  args: readonly Arg[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> => ({
  name: "reviewer_result",
  schema: "https://gentle-ai.dev/schema/review/reviewer/v1",
  captureOperation,
  arguments: args,
  ...extra,
});
const lens = (args: readonly Arg[], extra: Record<string, unknown> = {}): Record<string, unknown> =>
  input("review.capture-result", args, extra);

// [label, input, relayed?]: the §12.1 condition, each conjunct broken once.
const SLOT_TABLE: readonly [string, Record<string, unknown>, boolean][] = [
  [
    "full",
    lens([...BASE, AGENT, MATERIALIZE], { submission: SUBMISSION, artifactSubject: { subjectHash: SUBJECT } }),
    true,
  ],
  // No provider tokens, no lens/order, no submission, no subject: `--name=value` with `_` kept; no optional key at all.
  [
    "bare",
    lens([
      { name: "agent", value: "pi" },
      { name: "materialize", value: "true" },
      { name: "repository_context", value: "rctx1_x" },
    ]),
    true,
  ],
  ["no materialize", lens([...BASE, AGENT]), false],
  ["no agent", lens([...BASE, MATERIALIZE]), false],
  ["agent codex", lens([...BASE, { name: "agent", value: "codex" }, MATERIALIZE]), false],
  ["materialize false", lens([...BASE, AGENT, { name: "materialize", value: "false" }]), false],
  ["duplicate agent", lens([...BASE, AGENT, AGENT, MATERIALIZE]), false],
  ["duplicate materialize", lens([...BASE, AGENT, MATERIALIZE, MATERIALIZE]), false],
  ["capture-evidence", input("review.capture-evidence", [...BASE, AGENT, MATERIALIZE]), false],
  ["refuter vector", input("review.capture-refuter", [AGENT, MATERIALIZE, EXECUTE]), false],
  // A duplicated lens is no lens (argumentValue needs exactly one), but the input is still a slot.
  ["duplicate lens", lens([...BASE, { name: "lens", value: "other" }, AGENT, MATERIALIZE]), true],
];
const SLOTS_EXPECTED = [
  {
    captureArgumentTokens: [
      "--lineage=review-1",
      "--lens=review-risk",
      "--order=2",
      "--agent=pi",
      "--materialize=true",
    ],
    submission: SUBMISSION,
    lens: "review-risk",
    order: "2",
    subjectHash: SUBJECT,
  },
  { captureArgumentTokens: ["--agent=pi", "--materialize=true", "--repository_context=rctx1_x"] },
  {
    captureArgumentTokens: [
      "--lineage=review-1",
      "--lens=review-risk",
      "--order=2",
      "--lens=other",
      "--agent=pi",
      "--materialize=true",
    ],
    order: "2",
  },
];

const role = (captureOperation: string, args: readonly Arg[]): Record<string, unknown> => ({
  ...input(captureOperation, [{ name: "lineage", value: "review-1", token: "--lineage=review-1" }, ...args]),
  name: captureOperation === "review.capture-refuter" ? "provider_refuter" : "provider_validation",
});
// [label, input, a vector?]: the §12.2 condition, each conjunct broken once.
const ROLE_TABLE: readonly [string, Record<string, unknown>, boolean][] = [
  ["refuter", role("review.capture-refuter", [AGENT, EXECUTE]), true],
  [
    "validation, bare tokens",
    role("review.capture-validation", [
      { name: "agent", value: "pi" },
      { name: "execute", value: "true" },
      { name: "dry_run", value: "0" },
    ]),
    true,
  ],
  ["capture-result", role("review.capture-result", [AGENT, EXECUTE]), false],
  ["no execute", role("review.capture-refuter", [AGENT]), false],
  ["no agent", role("review.capture-refuter", [EXECUTE]), false],
  ["agent codex", role("review.capture-refuter", [{ name: "agent", value: "codex" }, EXECUTE]), false],
  ["execute false", role("review.capture-refuter", [AGENT, { name: "execute", value: "false" }]), false],
  ["duplicate execute", role("review.capture-refuter", [AGENT, EXECUTE, EXECUTE]), false],
  ["duplicate agent", role("review.capture-validation", [AGENT, AGENT, EXECUTE]), false],
];
const ROLES_EXPECTED = [
  {
    captureOperation: "review.capture-refuter",
    argumentTokens: ["--lineage=review-1", "--agent=pi", "--execute=true"],
    name: "provider_refuter",
  },
  {
    captureOperation: "review.capture-validation",
    argumentTokens: ["--lineage=review-1", "--agent=pi", "--execute=true", "--dry_run=0"],
    name: "provider_validation",
  },
];

function needFunctions(view: ProbeView, names: readonly string[]): void {
  const absent = names.filter((name) => view.exports[name] !== "function");
  if (absent.length === names.length) throw new SkipCheck(`optional exports ${names.join(", ")} absent`);
  if (absent.length > 0)
    fail(
      `${absent.join(", ")} not exported as a function beside ${names.filter((n) => !absent.includes(n)).join(", ")}`,
    );
}

function value(result: ProbeResult | undefined, what: string): unknown {
  if (!result) fail(`${what}: no probe result`);
  if (!result.ok) fail(`${what} threw ${result.error.name}: ${result.error.message}`);
  return result.value;
}

/** The predicate on every row one by one, then the list function on all rows at once (input order kept). */
function detection(
  id: string,
  statement: string,
  section: string,
  fns: readonly [string, string],
  table: readonly [string, Record<string, unknown>, boolean][],
  expected: unknown[],
): Clause {
  const [predicate, list] = fns;
  return {
    id,
    statement,
    source: `${source}.${section}`,
    profiles: ALL_PROFILES,
    checks: [
      {
        probe: [
          ...table.map(([, row]) => ({ fn: predicate, args: [row] })),
          { fn: list, args: [table.map(([, row]) => row)] },
        ],
        verify: (view, results) => {
          needFunctions(view, fns);
          table.forEach(([label, , want], i) =>
            eq(value(results[i], `${predicate}(${label})`), want, `${predicate}(${label})`),
          );
          // Probe values carry an own property set to undefined as "<undefined>": an optional key must be absent.
          const got = value(results[table.length], list);
          if (!Array.isArray(got)) fail(`${list}(all rows) returned ${typeof got}, not an array`);
          expected.forEach((want, i) => eq(got[i], want, `${list}(all rows)[${i}]`));
          eq(got.length, expected.length, `${list}(all rows).length`);
        },
      },
    ],
  };
}

export const API_SLOT_CLAUSES: readonly Clause[] = [
  detection(
    "API-RELAY-SLOTS",
    "reviewHostRelaySlots keeps, in order, the review.capture-result inputs with exactly one materialize=true and one agent=pi, as {captureArgumentTokens, submission?, lens?, order?, subjectHash?}.",
    "1",
    ["isReviewHostRelayCollectInput", "reviewHostRelaySlots"],
    SLOT_TABLE,
    SLOTS_EXPECTED,
  ),
  detection(
    "API-ROLE-VECTOR-SLOTS",
    "reviewProviderRoleVectorSlots keeps, in order, the refuter/validation inputs with exactly one execute=true and one agent=pi, as {captureOperation, argumentTokens, name}.",
    "2",
    ["isReviewProviderRoleVectorInput", "reviewProviderRoleVectorSlots"],
    ROLE_TABLE,
    ROLES_EXPECTED,
  ),
];
