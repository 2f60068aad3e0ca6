// Live progress of a long command, always on stderr (stdout may carry a report: `run --json -`). On a terminal it is
// one line rewritten in place; elsewhere (a CI log, a pipe) a plain line every 10% of the work or every 10 s,
// whichever comes first, so a log shows the run is alive without a line per case.
import type { CommandIo } from "./command.ts";

/** Where a run stands: work items finished of the planned total, and how many failed so far. */
export interface ProgressCounts {
  readonly done: number;
  readonly total: number;
  readonly failed: number;
}

/** `tty`: one live line rewritten in place; `lines`: a plain line every 10% or 10 s. */
export type ProgressMode = "tty" | "lines";

/** One command's progress reporter. */
export interface Progress {
  /** New counts (a work item finished, or the run was planned). */
  update(counts: ProgressCounts): void;
  /** Time passed: refreshes the live line's clock, or prints a line when 10 s passed without one. */
  tick(): void;
  /** Erases the live line so another line can be written (no-op off a terminal). */
  suspend(): void;
  /** Redraws the live line after `suspend`. */
  resume(): void;
  /** Erases the live line for good: later updates and ticks print nothing. */
  finish(): void;
}

/** Off a terminal: at most this long without a line while counts are known. */
export const LINE_EVERY_MS = 10_000;
/** On a terminal and off it: how often time is checked (the live line's clock, the 10 s rule). */
export const TICK_MS = 1000;
/** Carriage return and erase-line: the live line is rewritten from column 0. */
export const CLEAR_LINE = "\r\x1b[2K";
/** What a progress line looks like (tests strip these from stderr). */
export const PROGRESS_LINE =
  /^relay-conformance [^:\n]*: \d+\/\d+ \S+ \(\d+%\), \d+ failed, [\d:]+ elapsed, ETA [-\d:]+$/;

/** Milliseconds as m:ss, or h:mm:ss from an hour on. */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** The remaining time at the pace so far; null before anything finished. */
export function etaMs(counts: ProgressCounts, elapsedMs: number): number | null {
  if (counts.done <= 0) return null;
  return Math.max(0, (elapsedMs * (counts.total - counts.done)) / counts.done);
}

/** The progress text: `relay-conformance run: 13/126 cases (10%), 1 failed, 0:14 elapsed, ETA 2:02`. */
export function progressText(
  label: string,
  unit: string,
  counts: ProgressCounts,
  elapsedMs: number,
  failedWord = "failed",
): string {
  const percent = counts.total > 0 ? Math.floor((counts.done * 100) / counts.total) : 100;
  const eta = etaMs(counts, elapsedMs);
  return `${label}: ${counts.done}/${counts.total} ${unit} (${percent}%), ${counts.failed} ${failedWord}, ${clockText(elapsedMs)} elapsed, ETA ${eta === null ? "-:--" : clockText(eta)}`;
}

export interface ProgressOptions {
  readonly mode: ProgressMode;
  /** Who is counting, e.g. `relay-conformance run`. */
  readonly label: string;
  /** What done/total count, e.g. `cases`. */
  readonly unit: string;
  /** Writes to stderr. */
  readonly write: (text: string) => void;
  /** The clock, in ms (injectable for tests). */
  readonly now: () => number;
  /** The terminal's width: the live line is cut to fit, since a wrapped line cannot be rewritten in place. */
  readonly columns?: number;
  /** What the `failed` count is called (mutate counts survivors). */
  readonly failedWord?: string;
}

/**
 * A progress reporter; it starts its elapsed clock now and writes only through `write`, never on a timer of its own.
 */
export function createProgress(options: ProgressOptions): Progress {
  const started = options.now();
  let counts: ProgressCounts | undefined;
  let drawn = false;
  let finished = false;
  let lastLineAt = started;
  let lastDecile = 0;
  let lastLine: ProgressCounts | undefined;
  const text = (c: ProgressCounts): string =>
    progressText(options.label, options.unit, c, options.now() - started, options.failedWord);
  const draw = (): void => {
    if (finished || counts === undefined) return;
    const full = text(counts);
    const width = options.columns ?? 0;
    options.write(`${CLEAR_LINE}${width > 1 && full.length >= width ? full.slice(0, width - 1) : full}`);
    drawn = true;
  };
  const line = (c: ProgressCounts, decile: number): void => {
    options.write(`${text(c)}\n`);
    lastLine = c;
    lastLineAt = options.now();
    lastDecile = Math.max(lastDecile, decile);
  };
  const decileOf = (c: ProgressCounts): number => (c.total > 0 ? Math.floor((c.done * 10) / c.total) : 0);
  const suspend = (): void => {
    if (!drawn) return;
    options.write(CLEAR_LINE);
    drawn = false;
  };
  return {
    update(next) {
      if (finished) return;
      counts = next;
      if (options.mode === "tty") return draw();
      const decile = decileOf(next);
      if (decile > lastDecile || options.now() - lastLineAt >= LINE_EVERY_MS) line(next, decile);
    },
    tick() {
      if (finished || counts === undefined) return;
      if (options.mode === "tty") return draw();
      if (options.now() - lastLineAt >= LINE_EVERY_MS) line(counts, decileOf(counts));
    },
    suspend,
    resume() {
      if (options.mode === "tty") draw();
    },
    finish() {
      suspend();
      // Off a terminal the last line must not be stale: a clause can fail after the 100% line (its verdict waits
      // for its last case), and a log that ends on "3 failed" above a summary of 4 reads as a miscount.
      if (
        !finished &&
        options.mode !== "tty" &&
        counts !== undefined &&
        lastLine !== undefined &&
        (counts.done !== lastLine.done || counts.failed !== lastLine.failed)
      )
        line(counts, decileOf(counts));
      finished = true;
    },
  };
}

/** Starts a repeating timer; returns its stop. The default never keeps the process alive. */
export type StartTimer = (tick: () => void, everyMs: number) => () => void;

const realTimer: StartTimer = (tick, everyMs) => {
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
};

const SILENT: Progress = {
  update() {},
  tick() {},
  suspend() {},
  resume() {},
  finish() {},
};

/**
 * A command's progress on `io.stderr` (none when `io.progress` is unset or `quiet`), ticking every second, and the io
 * the command should print through: on a terminal its writes erase the live line first and redraw it after, so
 * lines never interleave with it. Call `finish` before the final table (and on every way out).
 */
export function startProgress(
  io: CommandIo,
  label: string,
  unit: string,
  quiet: boolean,
  clock: { now: () => number; startTimer: StartTimer } = {
    now: Date.now,
    startTimer: realTimer,
  },
  failedWord?: string,
): { progress: Progress; io: CommandIo } {
  if (io.progress === undefined || quiet) return { progress: SILENT, io };
  const inner = createProgress({
    mode: io.progress,
    label,
    unit,
    write: io.stderr,
    now: clock.now,
    ...(io.columns === undefined ? {} : { columns: io.columns }),
    ...(failedWord === undefined ? {} : { failedWord }),
  });
  const stop = clock.startTimer(() => inner.tick(), TICK_MS);
  const progress: Progress = {
    update: (c) => inner.update(c),
    tick: () => inner.tick(),
    suspend: () => inner.suspend(),
    resume: () => inner.resume(),
    finish: () => {
      stop();
      inner.finish();
    },
  };
  if (io.progress !== "tty") return { progress, io };
  const around =
    (write: (text: string) => void) =>
    (text: string): void => {
      inner.suspend();
      write(text);
      inner.resume();
    };
  return {
    progress,
    io: { ...io, stdout: around(io.stdout), stderr: around(io.stderr) },
  };
}
