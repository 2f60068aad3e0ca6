import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { main } from "../../../conformance/main.ts";
import { paths } from "../../../conformance/goldens/paths.ts";
import { writeTar } from "../../support/ustar-write.ts";
import { VerifyReportSchema } from "../../../conformance/verify/report-schema.ts";

const API = "https://api.github.com/repos/Gentleman-Programming/gentle-ai/releases/tags";
const DL = "https://github.com/Gentleman-Programming/gentle-ai/releases/download";
const ASSET = "gentle-ai_2.4.0_linux_amd64.tar.gz";
const hex = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

// The download test's claim is the chain release → install → verify, goldens included. Every 2.4.0 golden through
// verify is verify.test.ts's ("the 2.4.0 simulator passes verify for its own profile, goldens included"), so verify
// sees one shipped golden here (the test checks which). The literal is inline: vi.mock is hoisted above constants.
vi.mock("../../../conformance/goldens/golden-file.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../conformance/goldens/golden-file.ts")>();
  return {
    ...original,
    shippedGoldens: (dir?: string) =>
      original.shippedGoldens(dir).filter((p) => p.endsWith("/role-vector-2.4.0.golden.json")),
  };
});

let dir: string;
let archive: Buffer;
let checksums: string;
let downloads: string[];

/**
 * A release archive whose gentle-ai wraps the simulator (the bundle needs its repository, so it is exec'd from there).
 */
function simulatorArchive(): Buffer {
  const wrapper = Buffer.from(`#!/bin/sh\nexec '${process.execPath}' '${paths.simGentleAi()}' "$@"\n`);
  return gzipSync(
    writeTar([
      { path: "gentle-ai", mode: 0o755, bytes: wrapper },
      { path: "LICENSE", mode: 0o644, bytes: Buffer.from("MIT\n") },
      { path: "README.md", mode: 0o644, bytes: Buffer.from("# gentle-ai\n") },
    ]),
  );
}

const server = setupServer(
  http.get(`${API}/:tag`, ({ params }) => {
    if (params.tag !== "v2.4.0") return HttpResponse.json({ message: "Not Found" }, { status: 404 });
    return HttpResponse.json({
      tag_name: "v2.4.0",
      draft: false,
      prerelease: false,
      assets: ["checksums.txt", "checksums.txt.minisig", ASSET].map((name) => ({
        name,
        browser_download_url: `${DL}/v2.4.0/${name}`,
      })),
    });
  }),
  http.get(`${DL}/v2.4.0/:name`, ({ params }) => {
    downloads.push(String(params.name));
    if (params.name === "checksums.txt") return new HttpResponse(checksums);
    if (params.name === ASSET) return new HttpResponse(archive);
    return new HttpResponse(null, { status: 404 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "release-e2e-"));
  archive = simulatorArchive();
  checksums = `${hex(archive)}  ${ASSET}\n${"0".repeat(64)}  gentle-ai_2.4.0_darwin_arm64.tar.gz\n`;
  downloads = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function io(): {
  io: { stdout: (t: string) => void; stderr: (t: string) => void; cwd: string };
  out: string[];
  err: string[];
} {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd: dir }, out, err };
}

describe("relay-conformance release (GitHub mocked with msw)", () => {
  it("downloads, checks the sha256, installs gentle-ai 0755 and verifies it with no drift", async () => {
    const cache = join(dir, "cache");
    const { io: sink, out, err } = io();
    const code = await main(
      ["release", "v2.4.0", "--os", "linux", "--arch", "amd64", "--cache", cache, "--json", "report.json"],
      sink,
    );
    expect(err.join("")).toBe("");
    const binary = join(cache, "v2.4.0", "linux_amd64", "gentle-ai");
    const text = out.join("");
    expect(
      text.startsWith(
        `release v2.4.0: ${ASSET} sha256 ${hex(archive)} matches checksums.txt\ninstalled ${binary} (sha256 `,
      ),
    ).toBe(true);
    expect(text.endsWith("result: no drift\n")).toBe(true);
    expect(code).toBe(0);
    expect(statSync(binary).mode & 0o777).toBe(0o755);
    expect(downloads).toEqual(["checksums.txt", ASSET]);
    const report = VerifyReportSchema.parse(JSON.parse(readFileSync(join(dir, "report.json"), "utf8")));
    expect([report.binary, report.versionOutput, report.profile, report.simulator, report.drift]).toEqual([
      binary,
      "gentle-ai 2.4.0\n",
      "2.4.0",
      true,
      false,
    ]);
    expect(report.goldens.length).toBeGreaterThan(0);
    expect(report.goldens.every((g) => g.status === "pass")).toBe(true);
    expect(report.goldens.map((g) => g.golden)).toEqual(["role-vector-2.4.0"]);
  }, 420_000);

  it("never unpacks or runs an archive whose checksum does not match", async () => {
    const cache = join(dir, "cache");
    const marker = join(dir, "executed");
    archive = gzipSync(
      writeTar([
        {
          path: "gentle-ai",
          mode: 0o755,
          bytes: Buffer.from(`#!/bin/sh\ntouch '${marker}'\necho 'gentle-ai 2.4.0'\n`),
        },
      ]),
    );
    const { io: sink, out, err } = io();
    expect(await main(["release", "v2.4.0", "--os", "linux", "--arch", "amd64", "--cache", cache], sink)).toBe(16);
    expect(err.join("")).toBe(
      `relay-conformance release: checksum-mismatch: sha256 of ${ASSET} is ${hex(archive)} but checksums.txt says ${checksums.slice(0, 64)}; refusing to unpack\n`,
    );
    expect(out.join("")).toBe("");
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(cache, "v2.4.0"))).toBe(false);
  });

  it("exits with each failure's own code: 404 tag 10, missing asset 14", async () => {
    const a = io();
    expect(await main(["release", "v9.9.9", "--os", "linux", "--arch", "amd64", "--cache", join(dir, "c")], a.io)).toBe(
      10,
    );
    expect(a.err.join("")).toBe(
      "relay-conformance release: tag-not-found: no release with tag v9.9.9 in Gentleman-Programming/gentle-ai (HTTP 404)\n",
    );
    const b = io();
    expect(
      await main(["release", "v2.4.0", "--os", "darwin", "--arch", "amd64", "--cache", join(dir, "c")], b.io),
    ).toBe(14);
    expect(b.err.join("")).toMatch(
      /^relay-conformance release: asset-missing: release v2\.4\.0 has no asset gentle-ai_2\.4\.0_darwin_amd64\.tar\.gz /,
    );
    const c = io();
    expect(await main(["release", "v2.4.0", "--os", "windows"], c.io)).toBe(2);
    expect(c.err.join("")).toBe(
      'relay-conformance: --os must be one of linux, darwin, got "windows"\nRun `relay-conformance release --help` for usage.\n',
    );
  });
});
