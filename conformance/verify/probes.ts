// The provider probe suite: each probe checks one contract clause against any gentle-ai binary. No probe mutates
// provider state: captures are only attempted with inputs the provider must refuse before persisting anything.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { replyCollectInputs, typedSubmission } from "../status/decode.ts";
import { relaySlots, renderToken } from "../status/slots.ts";
import {
  BINDING_MISMATCH_PREFIX,
  HANDSHAKE,
  statusArgv,
  NOT_ELIGIBLE_PR3444,
  NOT_ELIGIBLE_V240,
  TRANSPORT_UNSUPPORTED_STDERR,
  WHITESPACE_REFUSAL,
  preRelayFlagStdoutPrefix,
  undefinedFlagEnvelope,
} from "./expected-texts.ts";
import type { ProbeCall } from "./exec.ts";
import { parseVersionOutput, profileOfVersion } from "../cli/profile.ts";
import {
  bytesFinding,
  describe,
  exitFinding,
  inconclusive,
  isRelayProfile,
  jsonOf,
  prefixFinding,
  verdict,
  type Probe,
  type ProbeContext,
  type ProbeVerdict,
} from "./probe-kit.ts";

const hex = (c: string): string => c.repeat(64);
const UNKNOWN_FLAG_REFUSAL = /flag provided but not defined: -{1,2}(?:materialize|agent)\b/;
const EMPTY = Buffer.alloc(0);

/** Full, well-shaped but unknown binding tokens: enough to reach the handshake gate (§7.2 steps 3–8). */
const FAKE_BINDING = [
  "--lineage=review-0123456789abcdef",
  `--expected-revision=sha256:${hex("a")}`,
  `--target=sha256:${hex("b")}`,
  `--repository-context=rctx1_${hex("c")}`,
  "--lens=review-risk",
  "--order=0",
  `--subject-hash=sha256:${hex("d")}`,
];

function envelopeFindings(call: ProbeCall, code: string, extra: Record<string, unknown> = {}): (string | undefined)[] {
  const env = jsonOf(call.stdout);
  if (env === undefined)
    return [
      `\`${describe(call)}\` stdout is not a failure envelope: ${JSON.stringify(call.stdout.toString("utf8").slice(0, 120))}`,
    ];
  const want: Record<string, unknown> = { schema: "gentle-ai.review-integration.failure/v2", code, ...extra };
  return Object.entries(want).map(([k, v]) =>
    JSON.stringify(env[k]) === JSON.stringify(v)
      ? undefined
      : `\`${describe(call)}\` envelope ${k}: expected ${JSON.stringify(v)}, got ${JSON.stringify(env[k])}`,
  );
}

const versionProbe: Probe = {
  id: "version-output",
  clause: "§12 version: `gentle-ai <Version>\\n` on stdout for version, --version and -v; exit 0; empty stderr",
  async run(ctx) {
    const calls = await Promise.all(["version", "--version", "-v"].map((a) => ctx.call([a])));
    const findings: (string | undefined)[] = [];
    const versions = new Set<string>();
    for (const call of calls) {
      findings.push(exitFinding(call, 0), bytesFinding(`\`${describe(call)}\` stderr`, EMPTY, call.stderr));
      const v = parseVersionOutput(call.stdout.toString("utf8"));
      if (v === undefined || !call.stdout.toString("utf8").endsWith("\n"))
        findings.push(
          `\`${describe(call)}\` stdout is not one \`gentle-ai <Version>\\n\` line: ${JSON.stringify(call.stdout.toString("utf8"))}`,
        );
      else versions.add(v);
    }
    if (versions.size > 1) findings.push(`the three spellings report different versions: ${[...versions].join(", ")}`);
    const [v] = [...versions];
    if (v !== undefined && profileOfVersion(v) !== ctx.profile)
      findings.push(`version ${v} reports profile ${profileOfVersion(v) ?? "unknown"}, expected ${ctx.profile}`);
    return verdict(findings);
  },
};

const unknownVerbProbe: Probe = {
  id: "unknown-verb",
  clause: '§2 unknown review verb: empty stdout, stderr `Error: unknown review command "<x>"`, exit 1',
  async run(ctx) {
    const call = await ctx.call(["review", "no-such-verb"]);
    return verdict([
      exitFinding(call, 1),
      bytesFinding("stdout", EMPTY, call.stdout),
      bytesFinding("stderr", 'Error: unknown review command "no-such-verb"\n', call.stderr),
    ]);
  },
};

const unknownFlagProbe: Probe = {
  id: "unknown-flag-shape",
  clause:
    "§4/§5 undefined flag on capture-result: failure/v2 envelope + `[invalid_request]` (v2.4.0+); flag line + usage on stdout (pre-relay); exit 1",
  async run(ctx) {
    const call = await ctx.call(["review", "capture-result", "-x"]);
    if (isRelayProfile(ctx.profile)) {
      return verdict([
        exitFinding(call, 1),
        bytesFinding("stdout", undefinedFlagEnvelope("x"), call.stdout),
        bytesFinding("stderr", "Error: flag provided but not defined: -x [invalid_request]\n", call.stderr),
      ]);
    }
    return verdict([
      exitFinding(call, 1),
      prefixFinding("stdout", preRelayFlagStdoutPrefix("x"), call.stdout),
      bytesFinding("stderr", "Error: flag provided but not defined: -x\n", call.stderr),
    ]);
  },
};

const relayFlagsProbe: Probe = {
  id: "relay-flags",
  clause:
    "§14 capture-result --agent/--materialize: undefined before v2.4.0 (reports -agent first, never `Usage of`), defined from v2.4.0",
  async run(ctx) {
    const call = await ctx.call(["review", "capture-result", "--agent=pi", "--materialize=true"], {
      handshake: HANDSHAKE,
    });
    const stderr = call.stderr.toString("utf8");
    if (isRelayProfile(ctx.profile)) {
      return verdict([
        exitFinding(call, 1),
        UNKNOWN_FLAG_REFUSAL.test(stderr) ? `relay flags are undefined: ${JSON.stringify(stderr)}` : undefined,
      ]);
    }
    return verdict([
      exitFinding(call, 1),
      prefixFinding("stdout", preRelayFlagStdoutPrefix("agent"), call.stdout),
      call.stdout.includes("Usage of") ? "stdout carries Go's default `Usage of` header" : undefined,
      bytesFinding("stderr", "Error: flag provided but not defined: -agent\n", call.stderr),
    ]);
  },
};

const handshakeGateProbe: Probe = {
  id: "handshake-gate",
  clause:
    "§6 handshake: only the exact GENTLE_PI_REVIEW_RELAY_CONTRACT value admits pi; refusal text per profile with `[invalid_request]`",
  async run(ctx) {
    const argv = ["review", "capture-result", ...FAKE_BINDING, "--agent=pi", "--materialize=true"];
    const findings: (string | undefined)[] = [];
    for (const value of [null, "", "gentle-pi.review-relay/v0", "GENTLE-PI.REVIEW-RELAY/V1", ` ${HANDSHAKE}`]) {
      const call = await ctx.call(argv, { handshake: value });
      const label = `handshake ${value === null ? "unset" : JSON.stringify(value)}`;
      if (!isRelayProfile(ctx.profile)) {
        findings.push(
          exitFinding(call, 1),
          bytesFinding(`${label}: stderr`, "Error: flag provided but not defined: -agent\n", call.stderr),
        );
        continue;
      }
      const text = ctx.profile === "2.4.0" ? NOT_ELIGIBLE_V240 : NOT_ELIGIBLE_PR3444;
      findings.push(
        exitFinding(call, 1),
        bytesFinding(`${label}: stderr`, `Error: ${text} [invalid_request]\n`, call.stderr),
        ...envelopeFindings(call, "invalid_request", { operation: "review.capture-result" }),
      );
      // Go's encoder escapes < and > in the cause (§3): `<repo>` must appear as \u003crepo\u003e.
      if (ctx.profile === "2.4.0" && jsonOf(call.stdout) !== undefined && !call.stdout.includes("\\u003crepo\\u003e"))
        findings.push(`${label}: envelope cause lacks Go HTML escaping of <repo>`);
    }
    if (isRelayProfile(ctx.profile)) {
      const admitted = await ctx.call(argv, { handshake: HANDSHAKE });
      if (admitted.stderr.includes("not eligible for immutable receipt review"))
        findings.push(`the exact handshake is refused: ${JSON.stringify(admitted.stderr.toString("utf8"))}`);
    }
    return verdict(findings);
  },
};

const statusHandshakeProbe: Probe = {
  id: "status-agent-without-handshake",
  clause:
    "§6/§8.1 STATUS --agent pi without the handshake: immutable_review_transport_unsupported, retry_safe false, next_action stop",
  async run(ctx) {
    const call = await ctx.call(statusArgv(ctx.cwd, true), { handshake: null });
    return verdict([
      exitFinding(call, 1),
      bytesFinding("stderr", TRANSPORT_UNSUPPORTED_STDERR, call.stderr),
      ...envelopeFindings(call, "immutable_review_transport_unsupported", {
        operation: "review.status",
        retry_safe: false,
        next_action: "stop",
      }),
    ]);
  },
};

/** STATUS the stateful probes start from; undefined when the provider has no collectable review here. */
async function baseStatus(ctx: ProbeContext, agent: boolean): Promise<ProbeCall | undefined> {
  const call = await ctx.call(statusArgv(ctx.cwd, agent), { handshake: HANDSHAKE });
  return call.exitCode === 0 && replyCollectInputs(call).length > 0 ? call : undefined;
}

const NO_STATE =
  "provider STATUS offers no collectable review in this repository (point --cwd at a repository with an active review)";

/**
 * STATUS for the relay-side probes: with `--agent pi` and the handshake. If only the agent form fails while plain
 * STATUS works, that is drift (the provider refuses pi), not missing state.
 */
async function relayStatus(ctx: ProbeContext): Promise<ProbeCall | ProbeVerdict> {
  const call = await baseStatus(ctx, true);
  if (call !== undefined) return call;
  const plain = await baseStatus(ctx, false);
  if (plain === undefined) return inconclusive(NO_STATE);
  const refused = await ctx.call(statusArgv(ctx.cwd, true), { handshake: HANDSHAKE });
  return verdict([
    `STATUS --agent pi with the handshake offers no collect inputs (exit ${refused.exitCode}): ${JSON.stringify(refused.stderr.toString("utf8"))}`,
  ]);
}

const isCall = (v: ProbeCall | ProbeVerdict): v is ProbeCall => "argv" in v;

const submissionShapeProbe: Probe = {
  id: "status-submission-form",
  clause:
    "§8.3/§8.4 lens inputs: binding tokens in order, agent=pi + materialize=true with the handshake, the published submission form (7 binding tokens + --input={{value}} at 7)",
  async run(ctx) {
    if (!isRelayProfile(ctx.profile)) return preRelaySubmissionVerdict(ctx);
    const call = await relayStatus(ctx);
    if (!isCall(call)) return call;
    const findings: (string | undefined)[] = [bytesFinding("STATUS stderr", EMPTY, call.stderr)];
    const status = jsonOf(call.stdout) ?? {};
    if (status.schema !== "gentle-ai.review-integration.status/v5")
      findings.push(
        `STATUS schema: expected "gentle-ai.review-integration.status/v5", got ${JSON.stringify(status.schema)}`,
      );
    const rawInputs = (
      (status.next_transition as { collect?: { inputs?: Record<string, unknown>[] } } | undefined)?.collect?.inputs ??
      []
    ).filter((i) => i.capture_operation === "review.capture-result");
    if (rawInputs.length === 0) findings.push("STATUS offers no review.capture-result input");
    for (const input of rawInputs) findings.push(...lensInputFindings(input));
    return verdict(findings);
  },
};

/** Before the relay: STATUS --agent pi is refused, and no lens input of the plain STATUS carries a submission form. */
async function preRelaySubmissionVerdict(ctx: ProbeContext): Promise<ProbeVerdict> {
  const agentCall = await ctx.call(statusArgv(ctx.cwd, true), { handshake: HANDSHAKE });
  const plain = await baseStatus(ctx, false);
  const findings: (string | undefined)[] = [
    exitFinding(agentCall, 1),
    bytesFinding("STATUS --agent pi stderr", TRANSPORT_UNSUPPORTED_STDERR, agentCall.stderr),
  ];
  if (plain === undefined) return findings.every((f) => f === undefined) ? inconclusive(NO_STATE) : verdict(findings);
  for (const input of replyCollectInputs({ ...plain, exitCode: 0 })) {
    if (input.submission !== undefined) findings.push(`pre-relay input ${input.name} carries a submission form`);
  }
  return verdict(findings);
}

// The seven binding tokens of a lens input, in order.
const BINDING_TOKEN_PATTERNS = [
  /^--lineage=\S+$/,
  /^--expected-revision=sha256:[0-9a-f]{64}$/,
  /^--target=sha256:[0-9a-f]{64}$/,
  /^--repository-context=rctx1_[0-9a-f]{64}$/,
  /^--lens=\S+$/,
  /^--order=[0-9]+$/,
  /^--subject-hash=sha256:[0-9a-f]{64}$/,
];

/** One lens input's binding tokens, its --agent=pi --materialize=true tail and its submission form. */
function lensInputFindings(input: Record<string, unknown>): string[] {
  const findings: string[] = [];
  const name = `input ${String((input.arguments as { value?: string }[] | undefined)?.[4]?.value ?? "?")}`;
  const tokens = ((input.arguments as { token?: string }[] | undefined) ?? []).map((a) => a.token ?? "");
  BINDING_TOKEN_PATTERNS.forEach((p, i) => {
    if (!p.test(tokens[i] ?? ""))
      findings.push(`${name}: argument ${i} ${JSON.stringify(tokens[i])} does not match ${p}`);
  });
  if (tokens[7] !== "--agent=pi" || tokens[8] !== "--materialize=true" || tokens.length !== 9) {
    findings.push(
      `${name}: arguments must end --agent=pi --materialize=true (9 tokens), got ${JSON.stringify(tokens.slice(7))}`,
    );
  }
  const sub = input.submission as Record<string, unknown> | undefined;
  if (sub === undefined) {
    findings.push(`${name}: no submission form`);
    return findings;
  }
  // status-v5.schema.json capture_result_submission_descriptor: 8 tokens, value at 7, for every profile (no
  // source supports the inferred 2.5.0 form with --agent=pi).
  const want = [...tokens.slice(0, 7), "--input={{value}}"];
  if (JSON.stringify(Object.keys(sub)) !== JSON.stringify(["operation_token", "argument_tokens", "value"])) {
    findings.push(
      `${name}: submission keys ${JSON.stringify(Object.keys(sub))}, expected ["operation_token","argument_tokens","value"]`,
    );
  }
  if (sub.operation_token !== "capture-result")
    findings.push(`${name}: operation_token ${JSON.stringify(sub.operation_token)}`);
  if (JSON.stringify(sub.argument_tokens) !== JSON.stringify(want))
    findings.push(`${name}: argument_tokens ${JSON.stringify(sub.argument_tokens)}, expected ${JSON.stringify(want)}`);
  const value = {
    slot: "reviewer_result",
    domain: "artifact_path_or_stdin",
    schema: "https://gentle-ai.dev/schema/review/reviewer/v1",
    substitution_location: 7,
  };
  if (JSON.stringify(sub.value) !== JSON.stringify(value))
    findings.push(`${name}: value ${JSON.stringify(sub.value)}, expected ${JSON.stringify(value)}`);
  return findings;
}

const identityProbe: Probe = {
  id: "identity-formats",
  clause:
    "§13 identities: lineage, sha256:-prefixed digests, rctx1_ handle, git trees, lineage = review- + target[0:16]",
  async run(ctx) {
    const call = await baseStatus(ctx, false);
    if (call === undefined) return inconclusive(NO_STATE);
    const s = jsonOf(call.stdout) ?? {};
    const authority = (s.authority ?? {}) as Record<string, unknown>;
    const context = (s.repository_context ?? {}) as Record<string, unknown>;
    const prefixed = /^sha256:[0-9a-f]{64}$/;
    const tree = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
    const checks: [string, unknown, RegExp][] = [
      ["authority.lineage_id", authority.lineage_id, /^[a-z0-9]+(?:-[a-z0-9]+)*$/],
      ["authority.revision", authority.revision, prefixed],
      ["target_identity", s.target_identity, prefixed],
      ["repository_context.handle", context.handle, /^rctx1_[0-9a-f]{64}$/],
      ["repository_context.revision", context.revision, prefixed],
    ];
    for (const input of replyCollectInputs({ ...call, exitCode: 0 })) {
      if (input.artifact_subject)
        checks.push([`${input.name}.artifact_subject.subject_hash`, input.artifact_subject.subject_hash, prefixed]);
      if (input.base_tree !== undefined) checks.push([`${input.name}.base_tree`, input.base_tree, tree]);
      if (input.candidate_tree !== undefined) checks.push([`${input.name}.candidate_tree`, input.candidate_tree, tree]);
    }
    const findings: (string | undefined)[] = checks.map(([name, value, re]) =>
      typeof value === "string" && re.test(value) && !/^0+$/.test(value)
        ? undefined
        : `${name} ${JSON.stringify(value)} does not match ${re}`,
    );
    const lineage = String(authority.lineage_id ?? "");
    if (typeof authority.lineage_id === "string" && String(lineage).length > 128)
      findings.push("lineage longer than 128 characters");
    const target = typeof s.target_identity === "string" ? s.target_identity.slice(7, 23) : "";
    if (lineage !== `review-${target}`)
      findings.push(
        `lineage ${JSON.stringify(lineage)} is not review- + the first 16 hex of the target (review-${target})`,
      );
    return verdict(findings);
  },
};

const materializeProbe: Probe = {
  id: "materialize-deterministic-read-only",
  clause:
    "§7.3 materialize: raw prompt bytes, binding line first, byte-identical on repeat, empty stderr, exit 0, STATUS unchanged",
  async run(ctx) {
    if (!isRelayProfile(ctx.profile))
      return { status: "not-applicable", findings: ["pre-relay builds have no materialize"] };
    const before = await relayStatus(ctx);
    if (!isCall(before)) return before;
    const slot = relaySlots(replyCollectInputs({ ...before, exitCode: 0 }))[0];
    if (slot === undefined) return verdict(["STATUS with --agent pi and the handshake offers no relay slot"]);
    const argv = ["review", "capture-result", ...slot.captureArgumentTokens];
    const first = await ctx.call(argv, { handshake: HANDSHAKE });
    const second = await ctx.call(argv, { handshake: HANDSHAKE });
    const after = await ctx.call(statusArgv(ctx.cwd, true), { handshake: HANDSHAKE });
    const firstLine = first.stdout.subarray(0, Math.max(0, first.stdout.indexOf(0x0a)));
    return verdict([
      exitFinding(first, 0),
      bytesFinding("materialize stderr", EMPTY, first.stderr),
      first.stdout.length === 0 ? "materialize printed no bytes" : undefined,
      prefixFinding("materialize first line", "GENTLE_AI_REVIEW_BINDING {", firstLine),
      firstLine.includes('"subject_hash":"sha256:') ? undefined : 'binding line carries no "subject_hash":"sha256:…',
      first.stdout.subarray(-"GENTLE_AI_REVIEW_CONTEXT_END\n".length).toString("latin1") ===
      "GENTLE_AI_REVIEW_CONTEXT_END\n"
        ? undefined
        : "prompt does not end with GENTLE_AI_REVIEW_CONTEXT_END\\n",
      bytesFinding("repeated materialize stdout", first.stdout, second.stdout),
      bytesFinding("STATUS after materialize (read-only)", before.stdout, after.stdout),
    ]);
  },
};

function substitute(tokens: readonly string[], location: number, path: string): string[] {
  return tokens.map((t, i) => (i === location ? t.split("{{value}}").join(path) : t));
}

const refusalProbe: Probe = {
  id: "refusal-codes",
  clause:
    "§7.2/§7.4 submit refusals: whitespace result `[invalid_request]`, binding drift `[capture_binding_mismatch]`, exit 1, slot not consumed",
  async run(ctx) {
    const relay = isRelayProfile(ctx.profile);
    const before = relay ? await relayStatus(ctx) : ((await baseStatus(ctx, false)) ?? inconclusive(NO_STATE));
    if (!isCall(before)) return before;
    const input = replyCollectInputs({ ...before, exitCode: 0 }).find(
      (i) => i.capture_operation === "review.capture-result",
    );
    if (input === undefined) return verdict(["STATUS offers no review.capture-result input"]);
    const submission = input.submission === undefined ? undefined : typedSubmission(input.submission);
    const path = join(ctx.scratch, "whitespace-result.raw");
    await writeFile(path, "\n");
    let tokens: string[];
    if (relay) {
      if (submission === undefined) return verdict(["relay input carries no submission form"]);
      tokens = substitute(submission.argumentTokens, submission.values[0]?.substitutionLocation ?? -1, path);
    } else {
      tokens = [...input.arguments.map(renderToken), `--input=${path}`];
    }
    const op = relay ? submission!.operationToken : "capture-result";
    const whitespace = await ctx.call(["review", op, ...tokens], { handshake: HANDSHAKE });
    // Another slot's order: a binding drift (a drifted revision is refused earlier, as an unresolvable context).
    const drifted = tokens.map((t) => (t.startsWith("--order=") ? `--order=${t === "--order=1" ? "2" : "1"}` : t));
    const mismatch = await ctx.call(["review", op, ...drifted], { handshake: HANDSHAKE });
    const after = await ctx.call(statusArgv(ctx.cwd, relay), { handshake: HANDSHAKE });
    const mismatchText = mismatch.stderr.toString("utf8");
    return verdict([
      exitFinding(whitespace, 1),
      bytesFinding(
        "whitespace submit stderr",
        `Error: ${WHITESPACE_REFUSAL}${relay ? " [invalid_request]" : ""}\n`,
        whitespace.stderr,
      ),
      ...(relay
        ? envelopeFindings(whitespace, "invalid_request", { operation: "review.capture-result" })
        : [bytesFinding("whitespace submit stdout", EMPTY, whitespace.stdout)]),
      exitFinding(mismatch, 1),
      mismatchText.startsWith(`Error: ${BINDING_MISMATCH_PREFIX}`)
        ? undefined
        : `binding-drift stderr: ${JSON.stringify(mismatchText)}`,
      relay
        ? mismatchText.endsWith(" [capture_binding_mismatch]\n")
          ? undefined
          : "binding-drift stderr does not end with [capture_binding_mismatch]"
        : /\[[a-z_]+\]\n$/.test(mismatchText)
          ? "pre-relay refusal carries a [code] suffix"
          : undefined,
      ...(relay ? envelopeFindings(mismatch, "capture_binding_mismatch", { next_action: "review.status" }) : []),
      bytesFinding("STATUS after refused submits (slot not consumed)", before.stdout, after.stdout),
    ]);
  },
};

const roleVerbProbe: Probe = {
  id: "role-verbs",
  clause: "§9/§14 capture-refuter: absent before v2.4.0 (unknown review command); from v2.4.0 it has no --input flag",
  async run(ctx) {
    const call = await ctx.call(["review", "capture-refuter", "--input=x"], { handshake: HANDSHAKE });
    if (!isRelayProfile(ctx.profile)) {
      return verdict([
        exitFinding(call, 1),
        bytesFinding("stdout", EMPTY, call.stdout),
        bytesFinding("stderr", 'Error: unknown review command "capture-refuter"\n', call.stderr),
      ]);
    }
    return verdict([
      exitFinding(call, 1),
      bytesFinding("stderr", "Error: flag provided but not defined: -input [invalid_request]\n", call.stderr),
    ]);
  },
};

/** Every probe, in report order. */
export const PROBES: readonly Probe[] = [
  versionProbe,
  unknownVerbProbe,
  unknownFlagProbe,
  relayFlagsProbe,
  handshakeGateProbe,
  statusHandshakeProbe,
  submissionShapeProbe,
  identityProbe,
  materializeProbe,
  refusalProbe,
  roleVerbProbe,
];

/**
 * §3 over every call the probes made: exit codes only 0 or 1; failure stderr exactly one `Error: …\n` line; success
 * stderr empty.
 */
export function outputDisciplineFindings(calls: readonly ProbeCall[]): string[] {
  const findings: string[] = [];
  for (const call of calls) {
    if (call.exitCode !== 0 && call.exitCode !== 1)
      findings.push(`\`${describe(call)}\` exited ${call.exitCode ?? call.signal}; gentle-ai exits only 0 or 1`);
    const err = call.stderr.toString("utf8");
    if (call.exitCode === 1 && !/^Error: [^\n]*\n$/.test(err))
      findings.push(
        `\`${describe(call)}\` failure stderr is not one \`Error: …\` line: ${JSON.stringify(err.slice(0, 160))}`,
      );
    if (call.exitCode === 0 && call.stderr.length > 0)
      findings.push(`\`${describe(call)}\` succeeded with stderr ${JSON.stringify(err.slice(0, 160))}`);
  }
  return findings;
}
