// The txtar archive format (Go's golang.org/x/tools/txtar, as testscript uses it): a comment, then files, each
// starting at a `-- name --` line and running to the next one. A reproduction's script is the comment.

/** One file of an archive. */
export interface TxtarFile {
  readonly name: string;
  /** The file's text: every line with its newline (a last line without one gets one, as txtar does). */
  readonly text: string;
  /** 1-based line of the `-- name --` header. */
  readonly line: number;
}

/** A parsed archive: the lines before the first header, then the files in order (names may repeat). */
export interface Txtar {
  readonly comment: readonly string[];
  readonly files: readonly TxtarFile[];
}

/** A file header: `-- name --`, the name trimmed and not empty. */
const HEADER = /^-- (\S(?:.*\S)?) --$/;

/** Splits archive text into its comment lines and files. Never fails: any text is an archive. */
export function parseTxtar(text: string): Txtar {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const comment: string[] = [];
  const files: { name: string; text: string; line: number }[] = [];
  lines.forEach((l, i) => {
    const header = HEADER.exec(l);
    const current = files[files.length - 1];
    if (header) files.push({ name: header[1] as string, text: "", line: i + 1 });
    else if (current) current.text += `${l}\n`;
    else comment.push(l);
  });
  return { comment, files };
}
