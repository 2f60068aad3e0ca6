// `relay-conformance release <tag> --contracts` with GitHub mocked by msw: the binary and a synthetic source tarball
// (contracts written here, never copied from gentle-ai), each failure cause named on its own.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { main } from "../../../conformance/main.ts";
import { cli } from "../../support/cli.ts";
import { paths } from "../../../conformance/goldens/paths.ts";
import { ReleaseReportSchema } from "../../../conformance/release/report-schema.ts";
import { gitBlobId } from "../../../conformance/release/source-tarball.ts";
import { permissiveContracts } from "../../support/permissive-contracts.ts";
import { writeTar, type TarWriteEntry } from "../../support/ustar-write.ts";

const REPO = "https://api.github.com/repos/Gentleman-Programming/gentle-ai";
const DL = "https://github.com/Gentleman-Programming/gentle-ai/releases/download";
const CODELOAD = "https://codeload.github.com/Gentleman-Programming/gentle-ai/legacy.tar.gz";
const ASSET = "gentle-ai_2.4.0_linux_amd64.tar.gz";
const TAG_OBJECT = "7a".repeat(20);
const COMMIT = "c0ffee00".repeat(5);
const TREE = "3e".repeat(20);
const TOP = `Gentleman-Programming-gentle-ai-${COMMIT.slice(0, 7)}`;
const STATUS_V5 = "gentle-ai.review-integration.status/v5";
// One sweep lane. These tests are about release's composition (binary, source, verify, contracts verdict); the breadth
// of the sweep is fidelity-mirror's and fidelity-cli's. `default` prints status/v5 in every profile at a third of
// builtin's cost (builtin adds the repository leg's git repositories and calls).
const FAST = ["--os", "linux", "--arch", "amd64", "--no-goldens", "--scenario", "default"];
const hex = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

/**
 * contracts/ as gentle-ai lays it out: for each mirrored kind, a schema pinning its `schema` constant (plus `extra`).
 */
const contracts = (extra: Record<string, object> = {}): Map<string, Buffer> => permissiveContracts(extra);

/** The tarball GitHub serves for COMMIT: git archive's pax comment, one top folder, the contracts and a stray file. */
function sourceTarball(files: Map<string, Buffer>, options: { comment?: string; more?: TarWriteEntry[] } = {}): Buffer {
  const entries: TarWriteEntry[] = [
    { path: `${TOP}/`, mode: 0o755, bytes: Buffer.alloc(0), type: "directory" },
    { path: `${TOP}/go.mod`, mode: 0o644, bytes: Buffer.from("module example.test/gentle-ai\n") },
    ...[...files].map(([path, bytes]) => ({ path: `${TOP}/${path}`, mode: 0o644, bytes })),
    ...(options.more ?? []),
  ];
  return gzipSync(writeTar(entries, { comment: options.comment ?? COMMIT }));
}

interface Fixture {
  annotated: boolean;
  /** What the commit's tree lists under contracts/ (git blob ids of these bytes). */
  tree: Map<string, Buffer>;
  tarball: Buffer;
  archive: Buffer;
  checksums: string;
  requests: string[];
  auth: Map<string, string | null>;
}
let fx: Fixture;
let dir: string;

function record(request: Request): void {
  fx.requests.push(new URL(request.url).pathname);
  fx.auth.set(new URL(request.url).host, request.headers.get("authorization"));
}

const server = setupServer(
  http.get(`${REPO}/releases/tags/:tag`, ({ request, params }) => {
    record(request);
    if (params.tag !== "v2.4.0") return HttpResponse.json({ message: "Not Found" }, { status: 404 });
    return HttpResponse.json({
      tag_name: "v2.4.0",
      draft: false,
      prerelease: false,
      tarball_url: `${REPO}/tarball/v2.4.0`,
      assets: ["checksums.txt", ASSET].map((name) => ({ name, browser_download_url: `${DL}/v2.4.0/${name}` })),
    });
  }),
  http.get(`${DL}/v2.4.0/:name`, ({ request, params }) => {
    record(request);
    return new HttpResponse(params.name === "checksums.txt" ? fx.checksums : fx.archive);
  }),
  http.get(`${REPO}/git/ref/tags/:tag`, ({ request, params }) => {
    record(request);
    if (params.tag !== "v2.4.0") return HttpResponse.json({ message: "Not Found" }, { status: 404 });
    const object = fx.annotated ? { type: "tag", sha: TAG_OBJECT } : { type: "commit", sha: COMMIT };
    return HttpResponse.json({ ref: "refs/tags/v2.4.0", object });
  }),
  http.get(`${REPO}/git/tags/${TAG_OBJECT}`, ({ request }) => {
    record(request);
    return HttpResponse.json({ sha: TAG_OBJECT, tag: "v2.4.0", object: { type: "commit", sha: COMMIT } });
  }),
  http.get(`${REPO}/git/commits/${COMMIT}`, ({ request }) => {
    record(request);
    return HttpResponse.json({ sha: COMMIT, tree: { sha: TREE } });
  }),
  http.get(`${REPO}/git/trees/${TREE}`, ({ request }) => {
    record(request);
    const blobs = [...fx.tree].map(([path, bytes]) => ({ path, mode: "100644", type: "blob", sha: gitBlobId(bytes) }));
    const go = Buffer.from("module example.test/gentle-ai\n");
    const tree = [
      { path: "contracts", mode: "040000", type: "tree", sha: "1".repeat(40) },
      { path: "go.mod", mode: "100644", type: "blob", sha: gitBlobId(go) },
      ...blobs,
    ];
    return HttpResponse.json({
      sha: TREE,
      truncated: new URL(request.url).searchParams.get("recursive") !== "1",
      tree,
    });
  }),
  http.get(`${REPO}/tarball/:ref`, ({ request, params }) => {
    record(request);
    return new HttpResponse(null, { status: 302, headers: { location: `${CODELOAD}/${String(params.ref)}` } });
  }),
  http.get(`${CODELOAD}/${COMMIT}`, ({ request }) => {
    record(request);
    return new HttpResponse(fx.tarball, { headers: { "content-type": "application/x-gzip" } });
  }),
);

/** The release's gentle-ai: it wraps the simulator (the bundle needs its repository, so it is exec'd from there). */
const WRAPPER = Buffer.from(`#!/bin/sh\nexec '${process.execPath}' '${paths.simGentleAi()}' "$@"\n`);
const simulatorArchive = (): Buffer => gzipSync(writeTar([{ path: "gentle-ai", mode: 0o755, bytes: WRAPPER }]));

const savedEnv = { TMPDIR: process.env.TMPDIR, GITHUB_TOKEN: process.env.GITHUB_TOKEN };
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
/** The release as published: annotated tag, permissive contracts, the simulator's archive and its checksum. */
function freshFixture(): Fixture {
  const archive = simulatorArchive();
  const files = contracts();
  return {
    annotated: true,
    tree: files,
    tarball: sourceTarball(files),
    archive,
    checksums: `${hex(archive)}  ${ASSET}\n`,
    requests: [],
    auth: new Map(),
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "release-contracts-"));
  // Every temp folder the command makes lands here, so the test can see that none is left behind.
  process.env.TMPDIR = dir;
  delete process.env.GITHUB_TOKEN;
  fx = freshFixture();
});
afterEach(() => {
  for (const [k, v] of Object.entries(savedEnv))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  server.resetHandlers();
  rmSync(dir, { recursive: true, force: true });
});

async function release(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await cli(["release", "v2.4.0", "--cache", join(dir, "cache"), ...args], { cwd: dir });
  return { code: r.code, out: r.stdout, err: r.stderr };
}

/** The contracts temp folders left in `tmp` (the TMPDIR the command ran with). */
function leftovers(tmp = dir): string[] {
  return readdirSync(tmp).filter((n) => n.startsWith("relay-conformance-contracts-"));
}

const binaryLines = (f = fx, d = dir): string =>
  `release v2.4.0: ${ASSET} sha256 ${hex(f.archive)} matches checksums.txt\ninstalled ${join(d, "cache", "v2.4.0", "linux_amd64", "gentle-ai")} (sha256 `;
const sourceLine = (f = fx): string =>
  `source v2.4.0: commit ${COMMIT}, tarball sha256 ${hex(f.tarball)} (recorded); ${f.tree.size} contracts/ files match the commit's git blob ids\n`;
const CHANGED = "verdict: published contract changed: simulator needs updating\n";

/** One run of the batch below: its fixture, its folder (cwd and cache) and what it printed. */
interface Run {
  fx: Fixture;
  dir: string;
  code: number;
  out: string;
  err: string;
}

let gate: Promise<void> = Promise.resolve();

/**
 * `release v2.4.0 --cache <own folder>/cache …args` on a fresh fixture `prepare` adjusts, started once the previous
 * batched run has left the network: msw serves the one module-level fixture (and the token is process-wide), so each
 * run's download phase has them alone. That phase ends with the source line (nothing after it asks GitHub) or the run.
 */
function batched(tmp: string, prepare: (f: Fixture) => void, args: string[], token?: string): Promise<Run> {
  const previous = gate;
  let leave!: () => void;
  gate = new Promise<void>((resolve) => (leave = resolve));
  return (async () => {
    await previous;
    const own = freshFixture();
    prepare(own);
    fx = own;
    if (token === undefined) delete process.env.GITHUB_TOKEN;
    else process.env.GITHUB_TOKEN = token;
    const runDir = mkdtempSync(join(tmp, "run-"));
    let out = "";
    let err = "";
    try {
      const stdout = (t: string): void => {
        out += t;
        if (t.startsWith("source ")) leave();
      };
      const code = await main(["release", "v2.4.0", "--cache", join(runDir, "cache"), ...args], {
        stdout,
        stderr: (t) => (err += t),
        cwd: runDir,
      });
      return { fx: own, dir: runDir, code, out, err };
    } finally {
      leave();
    }
  })();
}

const changedTree = (f: Fixture): void => {
  f.tree = contracts({ [STATUS_V5]: { required: ["schema", "no_such_member"] } });
  f.tarball = sourceTarball(f.tree);
};

describe("relay-conformance release --contracts (GitHub mocked with msw)", () => {
  // The runs that reach verify and the sweep take seconds each, nearly all of it in child processes: they run at once
  // and each test judges its own. They share one TMPDIR, read only once every run has ended, so "no temp folder left"
  // covers each of them.
  describe("runs that reach verify and the sweep", () => {
    let tmp: string;
    let pass: Run, changed: Run, both: Run, drifted: Run, empty: Run;
    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), "release-contracts-batch-"));
      const saved = { TMPDIR: process.env.TMPDIR, GITHUB_TOKEN: process.env.GITHUB_TOKEN };
      process.env.TMPDIR = tmp;
      try {
        [pass, changed, both, drifted, empty] = await Promise.all([
          batched(tmp, () => {}, [...FAST, "--contracts", "--json", "report.json"], "tok123"),
          batched(
            tmp,
            (f) => {
              f.annotated = false;
              changedTree(f);
            },
            [...FAST, "--contracts", "--json", "report.json"],
          ),
          batched(tmp, changedTree, [...FAST, "--profile", "2.5.0", "--contracts", "--json", "report.json"]),
          batched(tmp, () => {}, [...FAST, "--profile", "2.5.0", "--contracts"]),
          batched(
            tmp,
            (f) => {
              f.tree = new Map([["contracts/README.md", Buffer.from("# contracts\n")]]);
              f.tarball = sourceTarball(f.tree);
            },
            [...FAST, "--contracts"],
          ),
        ]);
      } finally {
        for (const [k, v] of Object.entries(saved))
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
      }
    }, 300_000);
    afterAll(() => rmSync(tmp, { recursive: true, force: true }));

    it("passes when the binary matches and the tag's contracts accept the simulator; the token never reaches codeload", () => {
      const r = pass;
      expect(r.out.startsWith(binaryLines(r.fx, r.dir))).toBe(true);
      expect(r.out).toContain(`)\n${sourceLine(r.fx)}verify `);
      expect(r.out).toContain("result: no drift\n");
      expect(r.out).toMatch(
        /\nresult: all \d+ document kinds valid\nverdict: pass: the binary matches profile 2\.4\.0 and the simulator matches v2\.4\.0's published contract\n$/,
      );
      expect(r.err).toBe("fidelity: swept 1/1 scenario × profile lanes\n");
      expect(r.code).toBe(0);
      expect(r.fx.requests).toEqual([
        "/repos/Gentleman-Programming/gentle-ai/releases/tags/v2.4.0",
        "/Gentleman-Programming/gentle-ai/releases/download/v2.4.0/checksums.txt",
        `/Gentleman-Programming/gentle-ai/releases/download/v2.4.0/${ASSET}`,
        "/repos/Gentleman-Programming/gentle-ai/git/ref/tags/v2.4.0",
        `/repos/Gentleman-Programming/gentle-ai/git/tags/${TAG_OBJECT}`,
        `/repos/Gentleman-Programming/gentle-ai/git/commits/${COMMIT}`,
        `/repos/Gentleman-Programming/gentle-ai/git/trees/${TREE}`,
        `/repos/Gentleman-Programming/gentle-ai/tarball/${COMMIT}`,
        `/Gentleman-Programming/gentle-ai/legacy.tar.gz/${COMMIT}`,
      ]);
      expect(Object.fromEntries(r.fx.auth)).toEqual({
        "api.github.com": "Bearer tok123",
        "github.com": null,
        "codeload.github.com": null,
      });
      const report = ReleaseReportSchema.parse(JSON.parse(readFileSync(join(r.dir, "report.json"), "utf8")));
      expect(report.source).toEqual({
        repo: "Gentleman-Programming/gentle-ai",
        tag: "v2.4.0",
        tagObject: TAG_OBJECT,
        commit: COMMIT,
        tree: TREE,
        tarballSha256: hex(r.fx.tarball),
        topFolder: TOP,
        contractsFiles: r.fx.tree.size,
      });
      expect([report.verdict, report.causes, report.verify.drift, report.verify.profile]).toEqual([
        "pass",
        [],
        false,
        "2.4.0",
      ]);
      expect([report.contracts.verdict, report.contracts.profiles, report.contracts.contracts]).toEqual([
        "valid",
        ["2.4.0"],
        `Gentleman-Programming/gentle-ai@${COMMIT}:contracts/review-integration`,
      ]);
      expect(report.binary).toEqual({
        asset: ASSET,
        archiveSha256: hex(r.fx.archive),
        binarySha256: hex(WRAPPER),
        path: join(r.dir, "cache", "v2.4.0", "linux_amd64", "gentle-ai"),
      });
      expect(report.verify.binary).toBe(report.binary.path);
      expect(leftovers(tmp)).toEqual([]);
    });

    it("a published schema the simulator's document fails: 'published contract changed', exit 1", () => {
      const r = changed;
      expect(r.out).toContain("result: no drift\n");
      expect(r.out).toContain("      $: must have required property 'no_such_member'\n");
      expect(r.out.endsWith(`document kinds invalid\n${CHANGED}`)).toBe(true);
      expect(r.out).not.toContain("binary drifted");
      expect(r.code).toBe(1);
      const report = ReleaseReportSchema.parse(JSON.parse(readFileSync(join(r.dir, "report.json"), "utf8")));
      expect([report.source.tagObject, report.verdict, report.causes]).toEqual([
        null,
        "fail",
        [{ cause: "contract-changed", message: "published contract changed: simulator needs updating" }],
      ]);
      expect(report.contracts.kinds.find((k) => k.kind === STATUS_V5)?.status).toBe("invalid");
      expect(leftovers(tmp)).toEqual([]);
    });

    it("both causes at once: the binary drifted from the profile and the contract changed", () => {
      const r = both;
      expect(r.out).toMatch(/\nresult: DRIFT \(\d+ checks?\)\n/);
      expect(r.out.endsWith(`document kinds invalid\nverdict: binary drifted from profile 2.5.0\n${CHANGED}`)).toBe(
        true,
      );
      expect(r.code).toBe(1);
      const report = ReleaseReportSchema.parse(JSON.parse(readFileSync(join(r.dir, "report.json"), "utf8")));
      expect(report.causes).toEqual([
        { cause: "binary-drift", message: "binary drifted from profile 2.5.0" },
        { cause: "contract-changed", message: "published contract changed: simulator needs updating" },
      ]);
      expect([report.verdict, report.contracts.profiles]).toEqual(["fail", ["2.5.0"]]);
    });

    it("only the binary drifted: one cause, exit 1", () => {
      const r = drifted;
      expect(r.out.endsWith("document kinds valid\nverdict: binary drifted from profile 2.5.0\n")).toBe(true);
      expect(r.code).toBe(1);
    });

    it("a tag that publishes no schemas is bad input: exit 2, naming the commit, not the vanished temp folder", () => {
      const r = empty;
      expect(r.err).toBe(
        `relay-conformance: v2.4.0's contracts: Gentleman-Programming/gentle-ai@${COMMIT}:contracts: no contracts/review-integration/v1/schemas or v2/schemas (expected a gentle-ai checkout or an unpacked source release)\nRun \`relay-conformance release --help\` for usage.\n`,
      );
      expect(r.code).toBe(2);
      expect(leftovers(tmp)).toEqual([]);
    });
  });

  it.each([
    [
      "a tarball of another commit",
      (): void => {
        fx.tarball = sourceTarball(fx.tree, { comment: "f".repeat(40) });
      },
      20,
      `source-mismatch: source tarball is of commit ${"f".repeat(40)}, not the tagged commit ${COMMIT}`,
    ],
    [
      "a contract file that is not the commit's",
      (): void => {
        const tampered = new Map(fx.tree);
        tampered.set("contracts/review-integration/v2/schemas/status-v5.schema.json", Buffer.from('{"$id":"x"}'));
        fx.tarball = sourceTarball(tampered);
      },
      20,
      `source-mismatch: source tarball's contracts/review-integration/v2/schemas/status-v5.schema.json has git blob id ${gitBlobId(Buffer.from('{"$id":"x"}'))}, but commit ${COMMIT} has ${gitBlobId(contracts().get("contracts/review-integration/v2/schemas/status-v5.schema.json")!)}`,
    ],
    [
      "a path traversal entry",
      (): void => {
        fx.tarball = sourceTarball(fx.tree, {
          more: [{ path: `${TOP}/contracts/../../../../tmp/evil`, mode: 0o644, bytes: Buffer.from("x") }],
        });
      },
      21,
      `unsafe-archive: source tarball entry "${TOP}/contracts/../../../../tmp/evil" climbs out with ..; refusing to extract`,
    ],
    [
      "a symlink out of contracts/",
      (): void => {
        fx.tarball = sourceTarball(fx.tree, {
          more: [
            {
              path: `${TOP}/contracts/review-integration/v9`,
              mode: 0o777,
              bytes: Buffer.alloc(0),
              type: "symlink",
              linkname: "/etc",
            },
          ],
        });
      },
      21,
      'unsafe-archive: source tarball entry contracts/review-integration/v9 is a symlink to "/etc"; only regular files are extracted',
    ],
  ])("refuses %s before verify runs, writing nothing", async (_, tamper, code, message) => {
    tamper();
    const r = await release(...FAST, "--contracts");
    expect(r.err).toBe(`relay-conformance release: ${message}\n`);
    expect(r.out.startsWith(binaryLines())).toBe(true);
    expect(r.out.split("\n")).toHaveLength(3);
    expect(r.code).toBe(code);
    expect(leftovers()).toEqual([]);
  });

  it("a download failure or a missing git tag: one line and the release exit code", async () => {
    server.use(http.get(`${CODELOAD}/${COMMIT}`, () => HttpResponse.error()));
    const a = await release(...FAST, "--contracts");
    expect(a.err).toMatch(
      new RegExp(
        `^relay-conformance release: network-failure: network failure fetching source tarball of ${COMMIT} \\(${CODELOAD.replaceAll(".", "\\.")}/${COMMIT}\\): [^\\n]+\\n$`,
      ),
    );
    expect(a.code).toBe(17);
    server.use(
      http.get(`${REPO}/git/ref/tags/:tag`, () => HttpResponse.json({ message: "Not Found" }, { status: 404 })),
    );
    const b = await release(...FAST, "--contracts");
    expect(b.err).toBe(
      "relay-conformance release: tag-not-found: no git tag v2.4.0 in Gentleman-Programming/gentle-ai (HTTP 404)\n",
    );
    expect(b.code).toBe(10);
  });

  it("--scenario and --concurrency need --contracts; --help describes both failure causes", async () => {
    const r = await release("--scenario", "builtin");
    expect([r.code, r.err]).toEqual([
      2,
      "relay-conformance: --scenario and --concurrency only apply with --contracts\nRun `relay-conformance release --help` for usage.\n",
    ]);
    expect(fx.requests).toEqual([]);
    const h = await release("--help");
    expect(h.out).toContain('"binary drifted from profile <p>"');
    expect(h.out).toContain('"published contract changed: simulator needs updating"');
    expect(h.out).toContain("20 source-mismatch, 21 unsafe-archive.");
  });
});
