// A reproduction's script (the txtar comment), read line by line: the leading `#` block is the quoted report, then
// header lines (`title`, `issue`, `id`), `phase` lines, world lines (`scenario`, `repo`, `profile`), step lines with
// their assertion lines below them, and `stdin` lines naming the section an `exec` or `gentle-ai` after them reads.
import type { Phase, RepoFixture, ScenarioRef, Step } from "./format.ts";
import { PROFILES, type Profile } from "../../simulator/scenario/schema.ts";
import { isAssertionVerb, parseAssertion } from "./parse-assertion.ts";
import type { ParseContext } from "./parse-context.ts";
import { parseScenarioLine } from "./parse-scenario.ts";
import { isStepVerb, parseStepWords } from "./parse-step.ts";
import { splitWords, WordError } from "./words.ts";

/** The header lines: each at most once. */
type HeaderKey = "title" | "issue" | "id";

/** The script's state as its lines are read, and, once `finish` has run, what it says. */
export class ScriptParser {
  title: string | undefined;
  issue: string | undefined;
  id: string | undefined;
  readonly phases: Phase[] = [];
  private readonly summaryLines: string[] = [];
  private inSummary = true;
  private phase: Phase | undefined;
  private step: Step | undefined;
  private pendingStdin: string | undefined;
  private lastScenario: ScenarioRef | undefined;
  private lastRepo: RepoFixture | undefined;
  private lastProfile: Profile | undefined;

  constructor(private readonly ctx: ParseContext) {}

  /** The quoted report: the leading comment block without `# `, trailing blank lines dropped. */
  get summary(): string[] {
    const lines = [...this.summaryLines];
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    return lines;
  }

  /** Reads one script line; `line` is its 1-based number in the file. */
  read(raw: string, line: number): void {
    const trimmed = raw.trim();
    if (this.commentOrBlank(trimmed)) return;
    this.inSummary = false;
    const [, verb, rest] = /^(\S+)\s*(.*)$/.exec(trimmed) as unknown as [string, string, string];
    // Directives whose argument is the raw rest of the line.
    switch (verb) {
      case "title":
      case "issue":
      case "id":
        return this.header(line, verb, rest);
      case "phase":
        if (rest === "") return this.ctx.fail(line, "phase needs a title");
        this.phase = this.openPhase(line, rest);
        return;
      case "note":
        return this.addStep(this.currentPhase(line), {
          line,
          command: "note",
          args: [rest],
          options: {},
          assertions: [],
        });
    }
    const words = this.words(line, trimmed);
    if (!words) return;
    switch (verb) {
      case "scenario":
        return this.scenario(line, words.slice(1));
      case "repo":
        return this.repo(line, words.slice(1));
      case "profile":
        return this.profile(line, words.slice(1));
      case "stdin":
        if (words.length !== 2) return this.ctx.fail(line, "stdin takes one section name");
        this.ctx.needSection(line, words[1] as string);
        this.pendingStdin = words[1] as string;
        return;
    }
    const negate = verb === "!";
    const assertionWords = negate ? words.slice(1) : words;
    if (isAssertionVerb(assertionWords[0])) return this.assertion(line, negate, assertionWords);
    if (negate) return this.ctx.fail(line, `"!" negates only exit, stdout and stderr`);
    return this.stepLine(line, verb, words.slice(1));
  }

  /** The checks that need the whole script; `lastLine` is the script's last line. Call once, after every line. */
  finish(lastLine: number): void {
    if (this.title === undefined) this.ctx.fail(1, "missing `title` line");
    // Structure checks only on otherwise clean files: a bad step line would also leave its phase empty.
    if (this.ctx.problems.length === 0) {
      if (this.phases.length === 0) this.ctx.fail(1, "no steps");
      for (const p of this.phases) {
        if (p.scenario === undefined && p.repo === undefined)
          this.ctx.fail(p.line, "phase has no `scenario` or `repo` line (and no earlier one to reuse)");
        if (p.steps.length === 0) this.ctx.fail(p.line, "phase has no steps");
      }
    }
    if (this.pendingStdin !== undefined) this.ctx.fail(lastLine, "stdin line with no exec or gentle-ai step after it");
  }

  /** A `#` line (kept while the leading report block lasts) or a blank one (kept inside that block); true if so. */
  private commentOrBlank(trimmed: string): boolean {
    if (trimmed.startsWith("#")) {
      if (this.inSummary) this.summaryLines.push(trimmed.replace(/^# ?/, ""));
      return true;
    }
    if (trimmed === "") {
      if (this.inSummary && this.summaryLines.length > 0) this.summaryLines.push("");
      return true;
    }
    return false;
  }

  /** `title …`, `issue …`, `id …`: the raw rest of the line, once each. */
  private header(line: number, key: HeaderKey, value: string): void {
    if (value === "") return this.ctx.fail(line, `${key} needs a value`);
    if (this[key] !== undefined) return this.ctx.fail(line, `duplicate ${key}`);
    this[key] = value;
  }

  /** The line's words, quotes removed; reports a bad quote and returns undefined. */
  private words(line: number, trimmed: string): string[] | undefined {
    try {
      return splitWords(trimmed);
    } catch (e) {
      if (e instanceof WordError) return this.ctx.fail(line, e.message);
      throw e;
    }
  }

  /** `scenario …`: a phase with steps already gets a new phase of the same title; the scenario carries over. */
  private scenario(line: number, words: readonly string[]): void {
    const ref = parseScenarioLine(this.ctx, line, words);
    if (!ref) return;
    const phase = this.worldPhase(line);
    if (phase.scenario !== undefined && phase.scenario !== this.lastScenario)
      return this.ctx.fail(line, "duplicate scenario in one phase");
    phase.scenario = ref;
    this.lastScenario = ref;
  }

  /**
   * `repo [NAME]`: the phase's repository, from the sections `NAME/…` (committed) and `NAME.work/…` (changed); NAME is
   * `repo`.
   */
  private repo(line: number, words: readonly string[]): void {
    if (words.length > 1) return this.ctx.fail(line, "repo takes at most one fixture name");
    const name = words[0] ?? "repo";
    const take = (prefix: string): RepoFixture["committed"] =>
      [...this.ctx.sections.keys()]
        .filter((k) => k.startsWith(prefix) && k.length > prefix.length)
        .map((k) => ({ path: k.slice(prefix.length), section: k }));
    const committed = take(`${name}/`);
    const changed = take(name === "repo" ? "work/" : `${name}.work/`);
    if (committed.length + changed.length === 0 && name !== "repo")
      return this.ctx.fail(line, `repo ${name}: no section "-- ${name}/<path> --" in this file`);
    const bad = [...committed, ...changed].find((f) =>
      f.path.split("/").some((part) => part === ".." || part === "." || part === "" || part === ".git"),
    );
    if (bad)
      return this.ctx.fail(line, `repo: section "${bad.section}" names a path outside the work tree or inside .git`);
    const phase = this.worldPhase(line);
    if (phase.repo !== undefined && phase.repo !== this.lastRepo)
      return this.ctx.fail(line, "duplicate repo in one phase");
    phase.repo = { line, committed, changed };
    this.lastRepo = phase.repo;
  }

  /** `profile P`: the simulator profile of the phase's world. */
  private profile(line: number, words: readonly string[]): void {
    const p = words[0];
    if (words.length !== 1 || !(PROFILES as readonly string[]).includes(p as string))
      return this.ctx.fail(line, `profile takes one of ${PROFILES.join(", ")}`);
    const phase = this.worldPhase(line);
    if (phase.profile !== undefined && phase.profile !== this.lastProfile)
      return this.ctx.fail(line, "duplicate profile in one phase");
    phase.profile = p as Profile;
    this.lastProfile = phase.profile;
  }

  /** The phase a world line (`scenario`, `repo`, `profile`) sets: after steps, a new phase of the same title. */
  private worldPhase(line: number): Phase {
    if (this.phase && this.phase.steps.length > 0) this.phase = this.openPhase(line, this.phase.title);
    return this.currentPhase(line);
  }

  /** An assertion line: it belongs to the step line above it, which must be one with an answer to check. */
  private assertion(line: number, negate: boolean, words: readonly string[]): void {
    if (!this.step || this.step.command === "note" || this.step.command === "env")
      return this.ctx.fail(line, `${words[0]} must follow a step line`);
    const a = parseAssertion(this.ctx, line, negate, words);
    if (a) this.step.assertions.push(a);
  }

  /** A step line: `exec`, `env`, or a step of the table; an `exec` takes the pending `stdin`. */
  private stepLine(line: number, verb: string, words: readonly string[]): void {
    if (!isStepVerb(verb)) return this.ctx.fail(line, `unknown command "${verb}"`);
    const phase = this.currentPhase(line);
    const parsed = parseStepWords(verb, words, this.ctx.sections);
    if (typeof parsed === "string") return this.ctx.fail(line, parsed);
    const step: Step = { line, command: verb, args: parsed.args, options: parsed.options, assertions: [] };
    if (verb === "exec" || verb === "gentle-ai") {
      if (this.pendingStdin !== undefined) step.stdin = this.pendingStdin;
      this.pendingStdin = undefined;
    }
    this.addStep(phase, step);
  }

  /** Appends a step to a phase; the assertion lines below it apply to it. */
  private addStep(phase: Phase, step: Step): void {
    this.step = step;
    phase.steps.push(step);
  }

  /** The open phase, or a first one named after the title when no `phase` line came yet. */
  private currentPhase(line: number): Phase {
    this.phase ??= this.openPhase(line, this.title ?? "reproduction");
    return this.phase;
  }

  /** Starts a phase; it reuses the last world lines until lines of its own (`finish` reports none at all). */
  private openPhase(line: number, title: string): Phase {
    const p: Phase = { line, title, steps: [] };
    if (this.lastScenario) p.scenario = this.lastScenario;
    if (this.lastRepo) p.repo = this.lastRepo;
    if (this.lastProfile) p.profile = this.lastProfile;
    this.phases.push(p);
    this.step = undefined;
    return p;
  }
}
