// The txtar reader under a reproduction file: the comment (the script), then `-- name --` files.
import { describe, expect, it } from "vitest";
import { parseTxtar } from "../../../conformance/repro/txtar.ts";

describe("parseTxtar", () => {
  it("splits the comment from the files; each file runs to the next header and keeps its newlines", () => {
    expect(parseTxtar("# a report\ntitle t\n-- a.json --\n{}\n-- b.txt --\nline 1\n\nline 3\n")).toEqual({
      comment: ["# a report", "title t"],
      files: [
        { name: "a.json", text: "{}\n", line: 3 },
        { name: "b.txt", text: "line 1\n\nline 3\n", line: 5 },
      ],
    });
  });

  it("a last line without a newline gets one; an empty file is empty text", () => {
    expect(parseTxtar("-- a --\nx").files).toEqual([{ name: "a", text: "x\n", line: 1 }]);
    expect(parseTxtar("-- a --\n-- b --\n").files).toEqual([
      { name: "a", text: "", line: 1 },
      { name: "b", text: "", line: 2 },
    ]);
  });

  it("no header: everything is comment; no text: nothing at all", () => {
    expect(parseTxtar("title t\n\nstatus\n")).toEqual({ comment: ["title t", "", "status"], files: [] });
    expect(parseTxtar("")).toEqual({ comment: [], files: [] });
    expect(parseTxtar("\n")).toEqual({ comment: [""], files: [] });
  });

  it("a header is exactly `-- name --`: the name trimmed and not empty, nothing around it", () => {
    const notHeaders = ["--  --", "---- --", "-- a--", "--a --", " -- a --", "-- a -- x", "-- a ---"];
    for (const line of notHeaders.slice(0, 2)) expect(parseTxtar(`${line}\n`).files, line).toEqual([]);
    for (const line of notHeaders.slice(2))
      expect(parseTxtar(`${line}\n`), line).toEqual({ comment: [line], files: [] });
    expect(parseTxtar("-- a b.json --\n").files).toEqual([{ name: "a b.json", text: "", line: 1 }]);
    expect(parseTxtar("-- -- --\n").files).toEqual([{ name: "--", text: "", line: 1 }]);
  });

  it("a header-like line inside a file starts the next file; names may repeat (the parser reports duplicates)", () => {
    expect(parseTxtar("-- a --\n-- a --\ny\n").files).toEqual([
      { name: "a", text: "", line: 1 },
      { name: "a", text: "y\n", line: 2 },
    ]);
  });
});
