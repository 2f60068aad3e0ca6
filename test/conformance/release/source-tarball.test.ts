// The source tarball check of `release --contracts`: git archive's commit id, git blob ids, safe extraction.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { ReleaseError } from "../../../conformance/release/errors.ts";
import { gitBlobId, verifySourceTarball, writeContracts } from "../../../conformance/release/source-tarball.ts";
import type { GitBlob } from "../../../conformance/release/source.ts";
import { readTarEntries } from "../../../conformance/release/ustar.ts";
import { writeTar, type TarWriteEntry } from "../../support/ustar-write.ts";

const COMMIT = "0123456789abcdef0123456789abcdef01234567";
const TOP = "Gentleman-Programming-gentle-ai-0123456";
const SCHEMA = Buffer.from('{"$id":"https://example.test/a.schema.json","type":"object"}\n');
const FIXTURE = Buffer.from('{"schema":"x"}\n');
const file = (path: string, bytes: Buffer): TarWriteEntry => ({ path, mode: 0o644, bytes });
const dir = (path: string): TarWriteEntry => ({ path, mode: 0o755, bytes: Buffer.alloc(0), type: "directory" });

function tree(): TarWriteEntry[] {
  return [
    dir(`${TOP}/`),
    file(`${TOP}/README.md`, Buffer.from("# gentle-ai\n")),
    dir(`${TOP}/contracts/`),
    file(`${TOP}/contracts/review-integration/v2/schemas/a.schema.json`, SCHEMA),
    file(`${TOP}/contracts/review-integration/v2/fixtures/a.fixture.json`, FIXTURE),
  ];
}

function blobs(): Map<string, GitBlob> {
  return new Map([
    ["contracts/review-integration/v2/schemas/a.schema.json", { sha: gitBlobId(SCHEMA), mode: "100644" }],
    ["contracts/review-integration/v2/fixtures/a.fixture.json", { sha: gitBlobId(FIXTURE), mode: "100644" }],
  ]);
}

const tarball = (entries: TarWriteEntry[], comment: string | null = COMMIT): Buffer =>
  gzipSync(writeTar(entries, comment === null ? {} : { comment }));

function refusal(fn: () => unknown): ReleaseError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ReleaseError);
    return error as ReleaseError;
  }
  throw new Error("expected a ReleaseError");
}

describe("verifySourceTarball", () => {
  it("returns exactly the contracts/ files, the tarball's sha256 and its top folder", () => {
    const archive = tarball(tree());
    const verified = verifySourceTarball(archive, COMMIT, blobs());
    expect(verified.tarballSha256).toBe(createHash("sha256").update(archive).digest("hex"));
    expect(verified.topFolder).toBe(TOP);
    expect([...verified.files]).toEqual([
      ["contracts/review-integration/v2/schemas/a.schema.json", SCHEMA],
      ["contracts/review-integration/v2/fixtures/a.fixture.json", FIXTURE],
    ]);
  });

  it("computes git's own blob ids and reads git archive's commit id (a real git repository)", () => {
    const repo = mkdtempSync(join(tmpdir(), "source-tarball-git-"));
    try {
      const git = (...args: string[]): string =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], {
          cwd: repo,
          shell: false,
        }).toString();
      git("init", "-q");
      mkdirSync(join(repo, "contracts", "review-integration", "v2", "schemas"), { recursive: true });
      writeFileSync(join(repo, "contracts", "review-integration", "v2", "schemas", "a.schema.json"), SCHEMA);
      writeFileSync(join(repo, "contracts", `${"long-name-".repeat(12)}.json`), Buffer.from([0, 1, 2, 255]));
      writeFileSync(join(repo, "main.go"), "package main\n");
      git("add", ".");
      git("commit", "-q", "-m", "c");
      const commit = git("rev-parse", "HEAD").trim();
      const listed = new Map<string, GitBlob>(
        git("ls-tree", "-r", "HEAD", "contracts")
          .trim()
          .split("\n")
          .map((line) => {
            const [meta, path] = line.split("\t") as [string, string];
            const [mode, , sha] = meta.split(" ") as [string, string, string];
            return [path, { sha, mode }];
          }),
      );
      const top = `o-r-${commit.slice(0, 7)}`;
      const archive = execFileSync("git", ["archive", "--format=tar.gz", `--prefix=${top}/`, "HEAD"], {
        cwd: repo,
        shell: false,
      });
      const verified = verifySourceTarball(archive, commit, listed);
      expect([...verified.files.keys()].sort()).toEqual([...listed.keys()].sort());
      expect(verified.topFolder).toBe(top);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it.each([
    [
      "another commit's tarball",
      tarball(tree(), "f".repeat(40)),
      `source tarball is of commit ${"f".repeat(40)}, not the tagged commit ${COMMIT}`,
    ],
    [
      "no commit id",
      tarball(tree(), null),
      `source tarball carries no commit id (no pax global header comment); expected ${COMMIT}`,
    ],
    [
      "a top folder naming another commit",
      tarball(tree().map((e) => ({ ...e, path: e.path.replace(TOP, "o-r-fffffff") }))),
      `source tarball's top folder "o-r-fffffff" does not name commit ${COMMIT}`,
    ],
    [
      "a changed contract file",
      tarball(
        tree().map((e) =>
          e.path.endsWith("a.schema.json") ? { ...e, bytes: Buffer.from('{"$id":"x","type":"string"}\n') } : e,
        ),
      ),
      `source tarball's contracts/review-integration/v2/schemas/a.schema.json has git blob id ${gitBlobId(Buffer.from('{"$id":"x","type":"string"}\n'))}, but commit ${COMMIT} has ${gitBlobId(SCHEMA)}`,
    ],
    [
      "a missing contract file",
      tarball(tree().filter((e) => !e.path.endsWith("a.fixture.json"))),
      `source tarball lacks contracts/review-integration/v2/fixtures/a.fixture.json, which commit ${COMMIT} has`,
    ],
    [
      "an extra contract file",
      tarball([...tree(), file(`${TOP}/contracts/review-integration/v2/schemas/b.schema.json`, SCHEMA)]),
      `source tarball holds contracts/review-integration/v2/schemas/b.schema.json, which commit ${COMMIT} does not`,
    ],
    [
      "two top folders",
      tarball([...tree(), file("other/x", FIXTURE)]),
      `source tarball entries are not all in one top folder ("${TOP}", "other")`,
    ],
  ])("refuses %s as source-mismatch (exit 20)", (_, archive, message) => {
    const e = refusal(() => verifySourceTarball(archive, COMMIT, blobs()));
    expect([e.code, e.exitCode, e.message]).toEqual(["source-mismatch", 20, message]);
  });

  it.each([
    [
      `${TOP}/contracts/../../../etc/evil`,
      `source tarball entry "${TOP}/contracts/../../../etc/evil" climbs out with ..; refusing to extract`,
    ],
    [`${TOP}/docs/../../evil`, `source tarball entry "${TOP}/docs/../../evil" climbs out with ..; refusing to extract`],
    ["/etc/evil", 'source tarball entry "/etc/evil" has an absolute or non-POSIX path; refusing to extract'],
  ])("refuses a path that escapes (%s) as unsafe-archive (exit 21), wherever it is", (path, message) => {
    const e = refusal(() => verifySourceTarball(tarball([...tree(), file(path, FIXTURE)]), COMMIT, blobs()));
    expect([e.code, e.exitCode, e.message]).toEqual(["unsafe-archive", 21, message]);
  });

  it("refuses a link in contracts/ and ignores one elsewhere", () => {
    const link: TarWriteEntry = {
      path: `${TOP}/contracts/review-integration/v2/evil`,
      mode: 0o777,
      bytes: Buffer.alloc(0),
      type: "symlink",
      linkname: "../../../../etc/passwd",
    };
    const e = refusal(() => verifySourceTarball(tarball([...tree(), link]), COMMIT, blobs()));
    expect([e.code, e.message]).toEqual([
      "unsafe-archive",
      'source tarball entry contracts/review-integration/v2/evil is a symlink to "../../../../etc/passwd"; only regular files are extracted',
    ]);
    const hard: TarWriteEntry = { ...link, type: "hardlink", linkname: `${TOP}/README.md` };
    expect(refusal(() => verifySourceTarball(tarball([...tree(), hard]), COMMIT, blobs())).code).toBe("unsafe-archive");
    const elsewhere: TarWriteEntry = { ...link, path: `${TOP}/docs/link` };
    expect(verifySourceTarball(tarball([...tree(), elsewhere]), COMMIT, blobs()).files.size).toBe(2);
  });

  it("refuses a contract file listed twice", () => {
    const twice = [...tree(), file(`${TOP}/contracts/review-integration/v2/fixtures/a.fixture.json`, FIXTURE)];
    expect(refusal(() => verifySourceTarball(tarball(twice), COMMIT, blobs())).message).toBe(
      "source tarball holds contracts/review-integration/v2/fixtures/a.fixture.json twice",
    );
  });

  it("reads pax long paths, directories and links", () => {
    const long = `${TOP}/contracts/${"d".repeat(120)}.json`;
    const { entries, global } = readTarEntries(
      writeTar(
        [
          dir(`${TOP}/`),
          file(long, FIXTURE),
          { path: `${TOP}/l`, mode: 0o777, bytes: Buffer.alloc(0), type: "symlink", linkname: "x" },
        ],
        { comment: COMMIT },
      ),
    );
    expect([...global]).toEqual([["comment", COMMIT]]);
    expect(entries.map((e) => [e.path, e.type, e.linkname, e.bytes.toString()])).toEqual([
      [`${TOP}/`, "directory", "", ""],
      [long, "file", "", FIXTURE.toString()],
      [`${TOP}/l`, "symlink", "x", ""],
    ]);
  });
});

describe("writeContracts", () => {
  it("writes each file under the folder with mode 0644, and never over an existing file", async () => {
    const out = mkdtempSync(join(tmpdir(), "write-contracts-"));
    try {
      const files = verifySourceTarball(tarball(tree()), COMMIT, blobs()).files;
      await writeContracts(files, out);
      expect(readdirSync(join(out, "contracts", "review-integration", "v2"))).toEqual(["fixtures", "schemas"]);
      const schema = join(out, "contracts", "review-integration", "v2", "schemas", "a.schema.json");
      expect(readFileSync(schema)).toEqual(SCHEMA);
      expect(statSync(schema).mode & 0o777).toBe(0o644 & ~process.umask());
      await expect(writeContracts(files, out)).rejects.toThrow(/EEXIST/);
      await expect(writeContracts(new Map([["contracts/../../x", FIXTURE]]), out)).rejects.toThrow(
        "climbs out with ..",
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
