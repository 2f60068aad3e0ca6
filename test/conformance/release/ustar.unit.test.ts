import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { readTar, readTarGz } from "../../../conformance/release/ustar.ts";
import { writeTar } from "../../support/ustar-write.ts";
import { ReleaseError } from "../../../conformance/release/errors.ts";

describe("ustar", () => {
  it("round-trips binary files through writeTar/readTarGz", () => {
    const bytes = Buffer.from([0, 255, 10, 13, 0x1b, ...Buffer.alloc(700, 7)]);
    const files = readTarGz(
      gzipSync(
        writeTar([
          { path: "a/b.bin", mode: 0o644, bytes },
          { path: "gentle-ai", mode: 0o755, bytes: Buffer.alloc(0) },
        ]),
      ),
    );
    expect(files).toEqual([
      { path: "a/b.bin", mode: 0o644, bytes },
      { path: "gentle-ai", mode: 0o755, bytes: Buffer.alloc(0) },
    ]);
  });

  it("reads archives made by the system tar, including long names", () => {
    const dir = mkdtempSync(join(tmpdir(), "ustar-test-"));
    try {
      const long = `${"d".repeat(120)}/file.txt`;
      mkdirSync(join(dir, "src", "d".repeat(120)), { recursive: true });
      writeFileSync(join(dir, "src", "gentle-ai"), "#!/bin/sh\n");
      chmodSync(join(dir, "src", "gentle-ai"), 0o755);
      writeFileSync(join(dir, "src", long), "x");
      execFileSync("tar", ["-czf", join(dir, "a.tar.gz"), "-C", join(dir, "src"), "gentle-ai", long], { shell: false });
      const files = readTarGz(readFileSync(join(dir, "a.tar.gz")));
      expect(files.map((f) => [f.path, f.mode, f.bytes.toString()])).toEqual([
        ["gentle-ai", 0o755, "#!/bin/sh\n"],
        [long, 0o644, "x"],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rejects a corrupted header and a non-gzip archive", () => {
    const tar = writeTar([{ path: "x", mode: 0o644, bytes: Buffer.from("y") }]);
    tar[0] = 0x7a;
    expect(() => readTar(tar)).toThrow(ReleaseError);
    expect(() => readTar(tar)).toThrow("tar header checksum mismatch at offset 0");
    expect(() => readTarGz(Buffer.from("not gzip"))).toThrow(/^archive is not a readable gzip stream/);
  });
});
