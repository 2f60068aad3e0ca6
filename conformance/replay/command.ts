import { resolve } from "node:path";
import { REPLAY_HANDLERS, replayHandlerFor, replayOptionTable } from "./registry.ts";
import type { ReplayHandler } from "./replay-handler.ts";
import { startProgress } from "../cli/progress.ts";
import { UsageError, type Command } from "../cli/command.ts";
import { splitPositionals } from "../cli/options.ts";
import { HELP_WIDTH, usageText, wrap } from "../cli/usage.ts";
import { InputFileError, readJsonFile } from "../cli/json-file.ts";

export const replayCommand: Command = {
  usage: usageText({
    synopsis: ["relay-conformance replay [<file>…] [options]"],
    about: `Re-runs each file on its own, choosing the replayer by the file's "schema" field:
${REPLAY_HANDLERS.map((h) => `  ${h.schemas.join(", ")}\n      ${wrap(h.describe, HELP_WIDTH, 6)}`).join("\n")}
With no file, replays every stored item of the kinds that support it (every catalogue golden), one line per
golden as it finishes, then a summary line. Options go before or after the files.`,
    options: replayOptionTable(),
    footer: `Exit 0 when everything replays clean, 1 on a failure, 2 on a bad file or bad option.
Progress goes to stderr: on a terminal one live line (items done/total, failed, elapsed time, ETA), erased before
any other line; otherwise (CI) a plain line every 10% of the items or every 10 s.`,
  }),
  async run(args, io) {
    // Files and options by the replayers' option tables: a boolean (--update) never swallows the file after it.
    const { positionals: files, optionArgs, names } = splitPositionals(args, replayOptionTable());
    const applies = (handler: ReplayHandler, what: string): void => {
      const foreign = names.find((n) => !(n in handler.options));
      if (foreign !== undefined) throw new UsageError(`--${foreign} does not apply to ${what}`);
    };
    if (optionArgs.includes("--help") || optionArgs.includes("-h")) {
      io.stdout(this.usage);
      return 0;
    }
    const options = optionArgs;
    const quiet = names.includes("quiet");
    if (files.length === 0) {
      const all = REPLAY_HANDLERS.filter((h) => h.replaysAll);
      if (all.length === 0) throw new UsageError("replay needs a file (no replayer supports replaying everything)");
      for (const h of all) applies(h, "replaying every golden");
      let worst = 0;
      for (const h of all) {
        const { progress, io: shown } = startProgress(io, "relay-conformance replay", "goldens", quiet);
        try {
          worst = Math.max(worst, (await h.replaysAll?.(options, shown, (counts) => progress.update(counts))) ?? 0);
        } finally {
          progress.finish();
        }
      }
      return worst;
    }
    // Every file is read and dispatched before any replays: a bad one is bad input before minutes of work.
    const jobs = files.map((file) => {
      const path = resolve(io.cwd, file);
      let data: unknown;
      try {
        data = readJsonFile(path, file);
      } catch (error) {
        if (error instanceof InputFileError) throw new UsageError(error.message);
        throw error;
      }
      const schema = (data as { schema?: unknown } | null)?.schema;
      const handler = replayHandlerFor(schema);
      if (!handler) throw new UsageError(`${file}: no replayer for schema ${JSON.stringify(schema)}`);
      applies(handler, `${file} (schema ${JSON.stringify(schema)})`);
      return { file, path, data, handler };
    });
    let worst = 0;
    const { progress, io: shown } = startProgress(io, "relay-conformance replay", "files", quiet);
    const counts = { done: 0, total: jobs.length, failed: 0 };
    progress.update({ ...counts });
    try {
      for (const { file, path, data, handler } of jobs) {
        try {
          const code = await handler.replay(path, data, options, shown);
          worst = Math.max(worst, code);
          counts.done += 1;
          if (code !== 0) counts.failed += 1;
          progress.update({ ...counts });
        } catch (error) {
          // Name the file as it was typed.
          if (error instanceof UsageError && error.message.startsWith(`${path}: `))
            throw new UsageError(`${file}: ${error.message.slice(path.length + 2)}`);
          throw error;
        }
      }
    } finally {
      progress.finish();
    }
    return worst;
  },
};
