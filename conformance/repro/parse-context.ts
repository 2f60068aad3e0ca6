// What the line parsers of a reproduction file share: the file's name and sections, and the problems found so far.
// Every parser reports here instead of throwing, so one run names every bad line.
import type { TxtarFile } from "./txtar.ts";

/** One problem: the 1-based line of the file it is on, and why. */
export interface ParseProblem {
  readonly line: number;
  readonly reason: string;
}

/** The file being parsed: its sections by name (a repeated name is a problem; the last one wins) and its problems. */
export class ParseContext {
  readonly problems: ParseProblem[] = [];
  readonly sections = new Map<string, TxtarFile>();

  constructor(
    readonly file: string,
    sections: readonly TxtarFile[],
  ) {
    for (const s of sections) {
      if (this.sections.has(s.name)) this.fail(s.line, `duplicate section "${s.name}"`);
      this.sections.set(s.name, s);
    }
  }

  /** Records a problem; returns undefined, so a parser can `return ctx.fail(...)` for "nothing parsed". */
  fail(line: number, reason: string): undefined {
    this.problems.push({ line, reason });
    return undefined;
  }

  /** Records a problem when the file has no section `name`. */
  needSection(line: number, name: string): void {
    if (!this.sections.has(name)) this.fail(line, `no section "-- ${name} --" in this file`);
  }
}
