/**
 * A scenario file that cannot be used; `message` holds one `gentle-ai-sim: <file>: <where>: <reason>` line per issue.
 */
export class ScenarioLoadError extends Error {
  override readonly name = "ScenarioLoadError";
  readonly file: string;
  readonly lines: readonly string[];
  constructor(file: string, reasons: readonly string[]) {
    const lines = reasons.map((reason) => `gentle-ai-sim: ${file}: ${reason}`);
    super(lines.join("\n"));
    this.file = file;
    this.lines = lines;
  }
}
