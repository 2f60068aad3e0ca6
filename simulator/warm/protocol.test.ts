import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decodeRequest, decodeResponse, headerLine, readsStdin, responseParts, spoolFiles, writeAtomic, type WarmRequest } from "./protocol.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const request = (stdin: number | null): WarmRequest => ({
  v: 1,
  program: "pi",
  argv: ["--print", "a b"],
  env: { PATH: "/bin", X: "é" },
  cwd: "/w",
  pid: 42,
  executablePath: "/sim/bin/pi",
  stdin,
});

describe("warm spool protocol", () => {
  it("round-trips a response's streams byte for byte (NUL, invalid UTF-8, CRLF) and its exit code", () => {
    const stdout = Buffer.from([0x00, 0xff, 0xfe, 0x0d, 0x0a, 0x0a]);
    const stderr = Buffer.from("refused [invalid_request]\n", "utf8");
    const decoded = decodeResponse(Buffer.concat(responseParts({ kind: "exit", code: 1, stdout: stdout.length, stderr: stderr.length }, stdout, stderr)));
    expect(decoded.header).toEqual({ kind: "exit", code: 1, stdout: 6, stderr: stderr.length });
    expect(decoded.stdout.equals(stdout)).toBe(true);
    expect(decoded.stderr.equals(stderr)).toBe(true);
  });

  it("decodes a hand-back with no streams", () => {
    expect(decodeResponse(Buffer.concat(responseParts({ kind: "local", why: "faults" })))).toEqual({
      header: { kind: "local", why: "faults" },
      stdout: Buffer.alloc(0),
      stderr: Buffer.alloc(0),
    });
  });

  it("rejects a response whose body disagrees with its header, and one without a header line", () => {
    const bad = Buffer.concat([headerLine({ kind: "exit", code: 0, stdout: 3, stderr: 0 }), Buffer.from("ab")]);
    expect(() => decodeResponse(bad)).toThrow("response body is 2 bytes, header says 3+0");
    expect(() => decodeResponse(Buffer.from("{}"))).toThrow("no header line");
  });

  it("carries pi's stdin after the request header, and none for gentle-ai", () => {
    const stdin = Buffer.from([0x0a, 0x00, 0x0a]);
    const withStdin = decodeRequest(Buffer.concat([headerLine(request(3)), stdin]));
    expect(withStdin.request).toEqual(request(3));
    expect(withStdin.stdin?.equals(stdin)).toBe(true);
    expect(decodeRequest(headerLine(request(null))).stdin).toBeNull();
    expect(() => decodeRequest(Buffer.concat([headerLine(request(4)), stdin]))).toThrow("request carries 3 stdin bytes, header says 4");
    expect(() => decodeRequest(headerLine({ ...request(null), v: 2 }))).toThrow("request version 2 (this server speaks 1)");
  });

  it("writes a spool file whole under its final name, leaving no temporary file", () => {
    const dir = mkdtempSync(join(tmpdir(), "warm-protocol-"));
    dirs.push(dir);
    const { req, res } = spoolFiles(dir, "7-99");
    expect([req, res]).toEqual([join(dir, "7-99.req"), join(dir, "7-99.res")]);
    writeAtomic(req, Buffer.from("ab"), Buffer.alloc(0), Buffer.from([0x00]));
    expect(readFileSync(req)).toEqual(Buffer.from([0x61, 0x62, 0x00]));
    expect(readdirSync(dir)).toEqual(["7-99.req"]);
  });

  it("knows which gentle-ai tokens read stdin", () => {
    expect(["-", "--input=-", "-input=-"].map(readsStdin)).toEqual([true, true, true]);
    expect(["--input=/tmp/x", "--input=-x", "--", "--lens=review-risk"].map(readsStdin)).toEqual([false, false, false, false]);
  });
});
