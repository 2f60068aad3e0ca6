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
  if (!/^[0-7]+$/.test(text))
    throw new ReleaseError("bad-archive", `tar header has a malformed ${what}: ${JSON.stringify(text)}`);
  return parseInt(text, 8);
}

function checksumOk(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < 512; i += 1) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum === octal(block, 148, 8, "checksum");
}

/** Parses pax extended header records ("<len> key=value\n" each); a malformed record ends the parse. */
function paxRecords(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let rest = data;
  while (rest.length > 0) {
    const space = rest.indexOf(0x20);
    const len = parseInt(rest.subarray(0, space).toString("ascii"), 10);
    if (space <= 0 || !Number.isSafeInteger(len) || len <= space || len > rest.length) break;
    const record = rest.subarray(space + 1, len - 1).toString("utf8");
    const eq = record.indexOf("=");
    if (eq > 0) records.set(record.slice(0, eq), record.slice(eq + 1));
    rest = rest.subarray(len);
  }
  return records;
}

/** What a tar entry is; anything but these (devices, fifos, GNU sparse files) is "other". */
export type TarEntryType = "file" | "directory" | "symlink" | "hardlink" | "other";

/** One entry of a tar archive: its path, type, mode, link target (links only) and bytes (files only). */
export interface TarEntry {
  readonly path: string;
  readonly type: TarEntryType;
  readonly mode: number;
  readonly linkname: string;
  readonly bytes: Buffer;
}

/** Every entry of a tar archive plus its pax global header records (git archive writes the commit id as `comment`). */
export interface TarListing {
  readonly entries: readonly TarEntry[];
  readonly global: ReadonlyMap<string, string>;
}

const ENTRY_TYPE: Readonly<Record<string, TarEntryType>> = {
  "0": "file",
  "\0": "file",
  "7": "file",
  "5": "directory",
  "2": "symlink",
  "1": "hardlink",
};

/** Lists every entry of a ustar/pax/GNU tar archive (uncompressed bytes), with pax and GNU long names applied. */
export function readTarEntries(tar: Buffer): TarListing {
  const entries: TarEntry[] = [];
  const global = new Map<string, string>();
  let offset = 0;
  let longName: string | undefined;
  let longLink: string | undefined;
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
    if (type === "K") {
      longLink = field(data, 0, data.length);
      continue;
    }
    if (type === "x") {
      const records = paxRecords(data);
      longName = records.get("path") ?? longName;
      longLink = records.get("linkpath") ?? longLink;
      continue;
    }
    if (type === "g") {
      for (const [key, value] of paxRecords(data)) global.set(key, value);
      continue;
    }
    const isUstar = field(header, 257, 5) === "ustar";
    const prefix = isUstar ? field(header, 345, 155) : "";
    const path = longName ?? (prefix === "" ? field(header, 0, 100) : `${prefix}/${field(header, 0, 100)}`);
    const linkname = longLink ?? field(header, 157, 100);
    longName = undefined;
    longLink = undefined;
    const kind = ENTRY_TYPE[type] ?? "other";
    entries.push({
      path,
      type: kind,
      mode: octal(header, 100, 8, "mode"),
      linkname,
      bytes: kind === "file" ? Buffer.from(data) : Buffer.alloc(0),
    });
  }
  return { entries, global };
}

/** Lists the regular files of a ustar/pax/GNU tar archive (uncompressed bytes). */
export function readTar(tar: Buffer): TarFile[] {
  return readTarEntries(tar)
    .entries.filter((e) => e.type === "file")
    .map(({ path, mode, bytes }) => ({ path, mode, bytes }));
}

/** Gunzips a .tar.gz archive, capped so a gzip bomb cannot fill memory. */
export function gunzipArchive(archive: Buffer): Buffer {
  try {
    return gunzipSync(archive, { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch (error) {
    throw new ReleaseError("bad-archive", `archive is not a readable gzip stream: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Gunzips and lists a .tar.gz archive. */
export function readTarGz(archive: Buffer): TarFile[] {
  return readTar(gunzipArchive(archive));
}
