import { gunzipSync } from "node:zlib";
import { ReleaseError } from "./errors.ts";

// Release archives are a few MiB; the cap stops a gzip bomb before it fills memory.
const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

/** One regular file read from a tar archive. */
export interface TarFile {
  readonly path: string;
  readonly mode: number;
  readonly bytes: Buffer;
}

function field(block: Buffer, offset: number, length: number): string {
  const raw = block.subarray(offset, offset + length);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul === -1 ? length : nul).toString("utf8");
}

function octal(block: Buffer, offset: number, length: number, what: string): number {
  const text = field(block, offset, length).trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) throw new ReleaseError("bad-archive", `tar header has a malformed ${what}: ${JSON.stringify(text)}`);
  return parseInt(text, 8);
}

function checksumOk(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < 512; i += 1) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum === octal(block, 148, 8, "checksum");
}

function paxPath(data: Buffer): string | undefined {
  // Records are "<len> key=value\n"; only `path` matters for locating the binary.
  let rest = data;
  let found: string | undefined;
  while (rest.length > 0) {
    const space = rest.indexOf(0x20);
    const len = parseInt(rest.subarray(0, space).toString("ascii"), 10);
    if (space <= 0 || !Number.isSafeInteger(len) || len <= space || len > rest.length) break;
    const record = rest.subarray(space + 1, len - 1).toString("utf8");
    const eq = record.indexOf("=");
    if (record.slice(0, eq) === "path") found = record.slice(eq + 1);
    rest = rest.subarray(len);
  }
  return found;
}

/** Lists the regular files of a ustar/pax/GNU tar archive (uncompressed bytes). */
export function readTar(tar: Buffer): TarFile[] {
  const files: TarFile[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    if (!checksumOk(header)) throw new ReleaseError("bad-archive", `tar header checksum mismatch at offset ${offset}`);
    const size = octal(header, 124, 12, "size");
    const type = String.fromCharCode(header[156]!);
    const dataStart = offset + 512;
    if (dataStart + size > tar.length) throw new ReleaseError("bad-archive", "tar archive is truncated");
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / 512) * 512;
    if (type === "L") {
      longName = field(data, 0, data.length);
      continue;
    }
    if (type === "x") {
      longName = paxPath(data) ?? longName;
      continue;
    }
    if (type === "g") continue;
    const isUstar = field(header, 257, 5) === "ustar";
    const prefix = isUstar ? field(header, 345, 155) : "";
    const name = longName ?? (prefix === "" ? field(header, 0, 100) : `${prefix}/${field(header, 0, 100)}`);
    longName = undefined;
    if (type === "0" || type === "\0") {
      files.push({ path: name, mode: octal(header, 100, 8, "mode"), bytes: Buffer.from(data) });
    }
  }
  return files;
}

/** Gunzips and lists a .tar.gz archive. */
export function readTarGz(archive: Buffer): TarFile[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(archive, { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch (error) {
    throw new ReleaseError("bad-archive", `archive is not a readable gzip stream: ${(error as Error).message}`, { cause: error });
  }
  return readTar(tar);
}
