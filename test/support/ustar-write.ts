// Writes ustar archives for the release tests' fixtures; the harness itself only reads them (conformance/release/ustar.ts).
import type { TarFile } from "../../conformance/release/ustar.ts";

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(value.toString(8).padStart(length - 1, "0") + "\0", offset, length, "ascii");
}

/** Builds a ustar archive of regular files (paths under 100 bytes), for tests and fixture archives. */
export function writeTar(files: readonly TarFile[]): Buffer {
  const blocks: Buffer[] = [];
  for (const file of files) {
    if (Buffer.byteLength(file.path) >= 100) throw new RangeError(`tar path too long for ustar: ${file.path}`);
    const header = Buffer.alloc(512);
    header.write(file.path, 0, 100, "utf8");
    writeOctal(header, 100, 8, file.mode);
    writeOctal(header, 108, 8, 0);
    writeOctal(header, 116, 8, 0);
    writeOctal(header, 124, 12, file.bytes.length);
    writeOctal(header, 136, 12, 0);
    header.write("0", 156, 1, "ascii");
    header.write("ustar\u000000", 257, 8, "ascii");
    header.fill(0x20, 148, 156);
    let sum = 0;
    for (const b of header) sum += b;
    header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
    blocks.push(header, file.bytes, Buffer.alloc((512 - (file.bytes.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}
