// The lifecycle entry (review mode, START, plain STATUS) against bytes recorded from the real binaries: gentle-ai 2.4.0
// built from 301fb2ad and 2.5.0 built from fb55ef7b, each run in a fresh repository world. Only the world's paths
// are substituted; everything else is the recorded bytes.
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simWorlds } from "../../../support/sim-world.ts";
import { json } from "../../../support/spawn-process.ts";

const sandbox = simWorlds({ client: true, scenario: { profile: "2.4.0" } });
const sandbox25 = simWorlds({ client: true, scenario: { profile: "2.5.0" } });
const NOT_A_REPO =
  "git rev-parse --show-toplevel failed with exit code 128: fatal: not a git repository (or any of the parent directories): .git";
const ISSUES = "https://github.com/Gentleman-Programming/gentle-ai/issues/new/choose";

describe("the lifecycle entry, byte for byte with the real gentle-ai", () => {
  it("review mode outside a repository: the lease error, the failed-closed status, the zero status of a clone write", async () => {
    const s = sandbox();
    const outside = join(s.dir, "outside");
    mkdirSync(outside, { recursive: true });
    // Recorded from gentle-ai 2.4.0 built from 301fb2ad (2.5.0 at fb55ef7b prints the same).
    const status = await s.run(["review", "mode", "status", "--cwd", outside]);
    expect([status.code, status.stdoutText, status.stderrText]).toEqual([
      1,
      "receipt-driven development: off (decided by clone_local)\n  global:      unset\n  clone-local: unset\n",
      `Error: resolve review mode repository identity: ${NOT_A_REPO}\n`,
    ]);
    const disable = await s.run(["review", "mode", "disable", "--scope", "clone", "--cwd", outside]);
    expect([disable.code, disable.stdoutText, disable.stderrText]).toEqual([
      1,
      "receipt-driven development: off (decided by )\n  global:      unset\n  clone-local: unset\n",
      `Error: resolve review mode repository identity: ${NOT_A_REPO}\n`,
    ]);
    // A path that does not exist holds no clone override: status answers from the global source alone.
    expect((await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", s.dir])).code).toBe(1);
    const missing = await s.run(["review", "mode", "status", "--cwd", join(s.dir, "nope")]);
    expect([missing.code, missing.stdoutText, missing.stderrText]).toEqual([
      0,
      "receipt-driven development: on (decided by global)\n  global:      on\n  clone-local: unset\n",
      "",
    ]);
  });

  it("START outside a repository and an untyped START failure (with its defect report)", async () => {
    const s = sandbox();
    const outside = join(s.dir, "outside");
    mkdirSync(outside, { recursive: true });
    const run = await s.run(["review", "start", "--cwd", outside]);
    expect([run.code, run.stdoutText, run.stderrText]).toEqual([
      1,
      "",
      `Error: resolve review repository root: ${NOT_A_REPO}\n`,
    ]);
    const negotiated = await s.run(
      ["review", "status", "--cwd", outside, "--contract", "gentle-ai.review-integration/v2", "--lineage", "x"],
      { cwd: outside },
    );
    expect(negotiated.code).toBe(0); // (deviation) outside a work tree the seeded lineage answers STATUS
    const repo = s.repo("r", { "a.txt": "hello\n" });
    await s.run(["review", "mode", "enable", "--scope", "global"]);
    s.write(repo, "a.txt", "hello\nhi\n");
    const focus = await s.run(["review", "start", "--cwd", repo, "--focus", "nope"]);
    const reports = join(repo, ".git", "gentle-ai", "defect-reports");
    const [report] = existsSync(reports) ? readdirSync(reports) : [];
    expect(report).toMatch(/^operation-outcome-unknown-[0-9a-f]{12}\.md$/);
    expect([focus.code, focus.stdoutText, focus.stderrText]).toEqual([
      1,
      "",
      `Error: unsupported review focus "nope" A defect report was saved at ${join(reports, report!)} -- file it at ${ISSUES}.\n`,
    ]);
  });

  it("2.4.0 derives review- + 16 hex of the target, resumes it, hints at the negotiated form, and lists it in plain STATUS", async () => {
    const s = sandbox();
    const repo = s.repo("r", { "a.txt": "hello\n" });
    const clean = await s.run(["review", "status", "--cwd", repo]);
    expect([clean.code, clean.stderrText]).toEqual([0, ""]);
    expect(clean.stdoutText).toBe(
      `{\n  "schema": "gentle-ai.review-authority-status/v1",\n  "operation": "review/status",\n  "repository": "${repo}",\n  "complete": true,\n  "authoritative": true,\n  "status": "clean",\n  "entries": [],\n  "locks": [],\n  "diagnostics": []\n}\n`,
    );
    await s.run(["review", "mode", "enable", "--scope", "global"]);
    s.write(repo, "a.txt", "hello\nhi\n");
    const created = json(await s.run(["review", "start", "--cwd", repo]));
    const target = created.target_identity as string;
    // Recorded from gentle-ai 2.4.0 built from 301fb2ad on the same content: the target identity, its derived lineage.
    expect([target, created.lineage_id]).toEqual([
      "sha256:64ab7060c24e94e84e4996b89967a4aadfb5f8c49ac78150596aace18b9ff463",
      "review-64ab7060c24e94e8",
    ]);
    // review_start_lineage.go reviewDerivedStartLineage at 301fb2ad.
    expect(created.lineage_id).toBe(`review-${target.slice("sha256:".length, "sha256:".length + 16)}`);
    expect(created.hint).toBe(
      "this response's selected lenses require the frozen Git trees, changed-path manifest, and artifact subjects, which only the negotiated contract form returns; rerun with " +
        `\`gentle-ai review start --contract gentle-ai.review-integration/v2 --target ${target} --projection workspace\` to receive them`,
    );
    expect(json(await s.run(["review", "start", "--cwd", repo])).action).toBe("resumed");
    const listed = await s.run(["review", "status", "--cwd", repo]);
    // compactStateRevision of the state START wrote, as gentle-ai 2.4.0 (301fb2ad) printed it.
    const revision = "sha256:99362fb04867d705210bbe6c99b1ccf8e48dddefee75c498e86119792349ea1d";
    const v2 = join(repo, ".git", "gentle-ai", "review-transactions", "v2");
    // Recorded from gentle-ai 2.4.0 built from 301fb2ad.
    expect(listed.stdoutText).toBe(
      `{\n  "schema": "gentle-ai.review-authority-status/v1",\n  "operation": "review/status",\n  "repository": "${repo}",\n  "complete": true,\n  "authoritative": true,\n  "status": "active",\n  "entries": [\n    {\n      "version": "compact-v2",\n      "lineage_id": "${created.lineage_id}",\n      "path": "${v2}/${created.lineage_id}",\n      "status": "active",\n      "state": "reviewing",\n      "revision": "${revision}",\n      "snapshot_identity": "${target}",\n      "discarded_work": {\n        "captured_lens_results": [],\n        "findings_present": false,\n        "evidence_records_present": false\n      },\n      "problems": []\n    }\n  ],\n  "locks": [\n    {\n      "version": "compact-v2",\n      "path": "${v2}/LOCK",\n      "status": "released"\n    }\n  ],\n  "diagnostics": []\n}\n`,
    );
  });

  it("2.5.0 keeps the atomic route: replayed, no hint", async () => {
    const s = sandbox25();
    const repo = s.repo("r", { "a.txt": "hello\n" });
    await s.run(["review", "mode", "enable", "--scope", "global"]);
    s.write(repo, "a.txt", "hello\nhi\n");
    const created = json(await s.run(["review", "start", "--cwd", repo]));
    expect([created.action, created.hint]).toEqual(["created", undefined]);
    expect(json(await s.run(["review", "start", "--cwd", repo])).action).toBe("replayed");
  });

  it("an undeclared untracked inventory asks for the selection without --next-transition", async () => {
    const s = sandbox();
    const repo = s.repo("r", { "a.txt": "hello\n" });
    s.write(repo, "new.txt", "new\n");
    const doc = json(await s.run(["review", "status", "--cwd", repo, "--contract", "gentle-ai.review-integration/v2"]));
    // Recorded from gentle-ai 2.4.0 built from 301fb2ad and 2.5.0 built from fb55ef7b.
    expect(doc.forecast).toEqual({
      horizon: "partial",
      steps: [
        {
          step: 1,
          kind: "collect",
          reason_code: "intended_untracked_selection_required",
          description: "intended untracked selection required",
        },
      ],
    });
    expect(doc.next_transition.reason_code).toBe("intended_untracked_selection_required");
  });

  it("--locale es asks the consent question in gentle-ai's Spanish", async () => {
    const s = sandbox();
    const workflow = ".github/workflows/deploy.yml";
    const repo = s.repo("r", { [workflow]: "name: x\n" });
    await s.run(["review", "mode", "enable", "--scope", "global"]);
    s.write(repo, workflow, "name: x\non: push\njobs:\n  deploy:\n    steps:\n      - run: curl -s | bash\n");
    const status = json(
      await s.run(["review", "status", "--cwd", repo, "--contract", "gentle-ai.review-integration/v2"]),
    );
    const target = status.target_identity as string;
    const run = await s.run(
      [
        "review",
        "start",
        "--cwd",
        repo,
        "--contract",
        "gentle-ai.review-integration/v2",
        "--target",
        target,
        "--projection",
        "workspace",
        "--agent",
        "pi",
        "--consent",
        "relay",
        "--locale",
        "es",
      ],
      { env: { GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1" } },
    );
    const base = `gentle-ai review start --contract gentle-ai.review-integration/v2 --cwd ${repo} --target ${target} --projection workspace --agent pi --locale es`;
    // Recorded from gentle-ai 2.4.0 built from 301fb2ad (2.5.0 built from fb55ef7b prints the same bytes).
    expect([run.code, run.stderrText]).toEqual([0, ""]);
    expect(run.stdoutText).toBe(
      `{\n  "schema": "gentle-ai.review-integration.consent/v3",\n  "contract": "gentle-ai.review-integration/v2",\n  "operation": "review.start",\n  "action": "consent_required",\n  "agent": "pi",\n  "blocking": true,\n  "target_identity": "${target}",\n  "projection": "workspace",\n  "risk_level": "high",\n  "changed_files": 1,\n  "changed_lines": 5,\n` +
        `  "headline": "Gentle AI puede revisar este cambio antes de que lo des por terminado.",\n  "reason": "este cambio recibe una revisión más profunda porque afecta a scripts de shell en .github/workflows/deploy.yml.",\n  "value": "La revisión lleva un poco más de tiempo y hace que el resultado sea considerablemente más seguro.",\n  "risk_evidence": [\n    "scripts de shell en .github/workflows/deploy.yml"\n  ],\n` +
        `  "choices": [\n    {\n      "answer": "granted",\n      "label": "Ejecutar la revisión ahora",\n      "effect": "Revisa ahora este candidato congelado exacto; no se otorga nada para candidatos posteriores, por lo que cada candidato posterior de riesgo medio o alto vuelve a pedir confirmación.",\n      "invocation": "${base} --consent granted"\n    },\n` +
        `    {\n      "answer": "declined",\n      "label": "Ahora no, solo esta vez",\n      "effect": "Omite la revisión solo para este candidato exacto; no se crea ninguna línea de revisión ni recibo, y la entrega ordinaria queda sin administrar por elección del candidato. El siguiente candidato vuelve a pedir confirmación. No es el interruptor de apagado.",\n      "invocation": "${base} --consent declined"\n    }\n  ],\n` +
        `  "off_path": {\n    "note": "Para desactivar las revisiones de forma permanente, ejecuta 'gentle-ai review mode disable'.",\n    "command": "gentle-ai review mode disable"\n  }\n}\n`,
    );
  });

  it("the START's repository-context event: 301fb2ad reports it under every contract, fb55ef7b records none", async () => {
    const V2 = "gentle-ai.review-integration/v2";
    const handshake = { env: { GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1" } };
    const started = async (s: ReturnType<typeof sandbox>): Promise<{ repo: string; lineage: string }> => {
      const repo = s.repo("r", { "a.txt": "hello\n" });
      await s.run(["review", "mode", "enable", "--scope", "global"]);
      s.write(repo, "a.txt", "hello\nhi\n");
      const target = json(await s.run(["review", "status", "--cwd", repo, "--contract", V2])).target_identity as string;
      const start = [
        "review",
        "start",
        "--cwd",
        repo,
        "--contract",
        V2,
        "--target",
        target,
        "--projection",
        "workspace",
        "--agent",
        "pi",
        "--consent",
        "granted",
      ];
      return { repo, lineage: json(await s.run(start, handshake)).lineage_id as string };
    };
    const s = sandbox();
    const l = await started(s);
    const v1 = json(
      await s.run([
        "review",
        "status",
        "--cwd",
        l.repo,
        "--contract",
        "gentle-ai.review-integration/v1",
        "--lineage",
        l.lineage,
        "--next-transition",
      ]),
    );
    // Recorded from gentle-ai 2.4.0 built from 301fb2ad: status/v2 carries the reconciled context, event and outcome.
    expect(Object.keys(v1.repository_context as object)).toEqual([
      "capability",
      "handle",
      "revision",
      "target_identity",
      "event_id",
      "outcome",
    ]);
    const s25 = sandbox25();
    const l25 = await started(s25);
    const v5 = json(
      await s25.run([
        "review",
        "status",
        "--cwd",
        l25.repo,
        "--contract",
        V2,
        "--lineage",
        l25.lineage,
        "--next-transition",
      ]),
    );
    // Recorded from gentle-ai 2.5.0 built from fb55ef7b: the published handle only.
    expect(Object.keys(v5.repository_context as object)).toEqual([
      "capability",
      "handle",
      "revision",
      "target_identity",
    ]);
  });
});
