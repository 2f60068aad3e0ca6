// What a `key=value` step command is: its name, its options as a zod schema (the parser checks each value against
// it, with the reason as the error), and how it runs. steps/index.ts lists them; a new step is one entry there.
import * as z from "zod/mini";
import type { StepContext, StepResult } from "./context.ts";

/** A step's options: every value a string as written in the file (`$VAR` expands when the step runs). */
export type StepOptionsSchema = z.ZodMiniObject<Record<string, z.ZodMiniType<string | undefined>>>;

/** One `key=value` step command. */
export interface StepDef<Name extends string = string> {
  readonly name: Name;
  readonly options: StepOptionsSchema;
  /** The option a leading bare word sets (`mode enable` is `mode action=enable`). */
  readonly positional?: string;
  /** Options whose value must name a section of the file (checked at parse time, like the schema). */
  readonly sectionOptions?: readonly string[];
  /**
   * The gentle-ai verb whose answer `exit`/`stdout`/`stderr`/`cmp` check: the step's own, never a STATUS read on the
   * way.
   */
  readonly answerVerb?: string;
  /** Runs the step; `options` are the line's, `$VAR`s expanded. */
  run(ctx: StepContext, options: Readonly<Record<string, string>>): Promise<StepResult>;
}

/**
 * A value checked at parse time unless it holds a `$VAR` (known only when the step runs): `why` is the reason a
 * bad value gets, after `<step>: <key>: `; `missing`, the whole error when a required option is left out.
 */
export function checkedWord(test: (value: string) => boolean, why: string, missing?: string): z.ZodMiniString {
  return z
    .string(missing === undefined ? undefined : { error: missing })
    .check(z.refine((v) => v.includes("$") || test(v), { error: why }));
}

/** A non-negative integer (`slot=0`, `bytes=1000`). */
export const count = (missing?: string): z.ZodMiniString =>
  checkedWord((v) => /^(0|[1-9]\d*)$/.test(v), "must be a non-negative integer", missing);

/** Any integer (`pi-timeout-ms=-1`). */
export const integer = (): z.ZodMiniString => checkedWord((v) => /^-?(0|[1-9]\d*)$/.test(v), "must be an integer");

/** One of a few words. */
export const oneOf = (words: readonly string[], why: string): z.ZodMiniString =>
  checkedWord((v) => words.includes(v), why);

/** Any value but the empty one (a module name, a handshake value; `$VAR` included). */
export const nonEmpty = (): z.ZodMiniString =>
  z.string().check(z.refine((v) => v !== "", { error: "must not be empty" }));

/** A section name (its existence is checked by the parser: see StepDef.sectionOptions). */
export const section = (): z.ZodMiniString => z.string();

/** `defects=none|D1,D2,D3` (the defect set of the 2.1.2 client model). */
export const defects = (): z.ZodMiniString =>
  checkedWord(
    (v) => v === "none" || v.split(",").every((d) => /^D[123]$/.test(d)),
    `must be "none" or a list of D1, D2, D3`,
  );
