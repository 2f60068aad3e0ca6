// Writes ustar archives for the release tests' fixtures; the harness itself only reads them
// (conformance/release/ustar.ts).
import type { TarFile } from "../../conformance/release/ustar.ts";

/** A file, or (with `type`) a directory or link; `linkname` is a link's target. */
export interface TarWriteEntry extends TarFile {
  readonly type?: "file" | "directory" | "symlink" | "hardlink";
  readonly linkname?: string;
}

const TYPE_FLAG = { file: "0", directory: "5", symlink: "2", hardlink: "1" } as const;

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(value.toString(8).padStart(length - 1, "0") + "\0", offset, length, "ascii");
}

function header(name: string, mode: number, size: number, flag: string, linkname = ""): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 100, "utf8");
  writeOctal(block, 100, 8, mode);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, 0);
  block.write(flag, 156, 1, "ascii");
  block.write(linkname, 157, 100, "utf8");
  block.write("ustar\u000000", 257, 8, "ascii");
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  block.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
  return block;
}

const pad = (length: number): Buffer => Buffer.alloc((512 - (length % 512)) % 512);

/** One pax record, "<len> key=value\n", whose length counts its own digits. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len += 1;
  return Buffer.from(`${len}${body}`);
}

function paxBlocks(name: string, flag: "g" | "x", records: Buffer): Buffer[] {
  return [header(name, 0o666, records.length, flag), records, pad(records.length)];
}

/**
 * Builds a ustar archive, for tests and fixture archives: paths of 100 bytes or more go in a pax `path` record;
 * `comment` writes a pax global header first, as git archive does with the commit id.
 */
export function writeTar(files: readonly TarWriteEntry[], options: { comment?: string } = {}): Buffer {
  const blocks: Buffer[] = [];
  if (options.comment !== undefined)
    blocks.push(...paxBlocks("pax_global_header", "g", paxRecord("comment", options.comment)));
  for (const file of files) {
    let name = file.path;
    if (Buffer.byteLength(file.path) >= 100) {
      blocks.push(...paxBlocks("PaxHeader", "x", paxRecord("path", file.path)));
      name = file.path.slice(0, 99);
    }
    const type = file.type ?? "file";
    const size = type === "file" ? file.bytes.length : 0;
    blocks.push(header(name, file.mode, size, TYPE_FLAG[type], file.linkname ?? ""));
    if (size > 0) blocks.push(file.bytes, pad(size));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}
