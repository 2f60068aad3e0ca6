// The progress reporter (cli/progress.ts) on a fake clock and a fake stream: the exact bytes of the live line on a
// terminal, the 10% / 10 s cadence of plain lines off one, the ETA, and how a command's io is wrapped.
import { describe, expect, it } from "vitest";
import type { CommandIo } from "../../../conformance/cli/command.ts";
import {
  CLEAR_LINE,
  clockText,
  createProgress,
  etaMs,
  PROGRESS_LINE,
  progressText,
  startProgress,
  TICK_MS,
  type ProgressMode,
} from "../../../conformance/cli/progress.ts";

/** A reporter writing into an array, on a clock the test sets. */
function fake(mode: ProgressMode): {
  writes: string[];
  at: (ms: number) => void;
  progress: ReturnType<typeof createProgress>;
} {
  let now = 0;
  const writes: string[] = [];
  const progress = createProgress({
    mode,
    label: "relay-conformance run",
    unit: "cases",
    write: (t) => writes.push(t),
    now: () => now,
  });
  return { writes, at: (ms) => (now = ms), progress };
}

const text = (done: number, total: number, failed: number, elapsed: string, eta: string): string =>
  `relay-conformance run: ${done}/${total} cases (${Math.floor((done * 100) / total)}%), ${failed} failed, ${elapsed} elapsed, ETA ${eta}`;

describe("progress text", () => {
  it("elapsed and ETA as m:ss (h:mm:ss from an hour), ETA unknown before anything finished", () => {
    expect([0, 999, 1000, 59_499, 60_000, 754_000, 3_723_000].map(clockText)).toEqual([
      "0:00",
      "0:01",
      "0:01",
      "0:59",
      "1:00",
      "12:34",
      "1:02:03",
    ]);
    expect(etaMs({ done: 0, total: 10, failed: 0 }, 5000)).toBeNull();
    expect(etaMs({ done: 4, total: 10, failed: 0 }, 8000)).toBe(12_000);
    expect(etaMs({ done: 10, total: 10, failed: 0 }, 8000)).toBe(0);
    expect(progressText("relay-conformance run", "cases", { done: 13, total: 126, failed: 1 }, 14_000)).toBe(
      "relay-conformance run: 13/126 cases (10%), 1 failed, 0:14 elapsed, ETA 2:02",
    );
    expect(progressText("relay-conformance replay", "goldens", { done: 0, total: 18, failed: 0 }, 400)).toBe(
      "relay-conformance replay: 0/18 goldens (0%), 0 failed, 0:00 elapsed, ETA -:--",
    );
  });

  it("PROGRESS_LINE matches the lines and nothing else a command prints", () => {
    expect(PROGRESS_LINE.test(text(13, 126, 1, "0:14", "2:02"))).toBe(true);
    expect(
      PROGRESS_LINE.test("relay-conformance matrix (relay 2/3): 0/9 cases (0%), 0 failed, 1:02:03 elapsed, ETA -:--"),
    ).toBe(true);
    expect(
      PROGRESS_LINE.test(
        "relay-conformance run: interrupted by SIGINT; stopped 2 child processes, removed 1 temp folder",
      ),
    ).toBe(false);
    expect(PROGRESS_LINE.test("relay-conformance: --keep: the run's temp folders stay in /tmp/x")).toBe(false);
  });
});

describe("on a terminal: one line rewritten in place", () => {
  it("every update and tick rewrites the line; suspend erases it once, resume redraws, finish erases for good", () => {
    const { writes, at, progress } = fake("tty");
    progress.tick(); // nothing planned yet: nothing to show
    progress.update({ done: 0, total: 10, failed: 0 });
    at(5000);
    progress.update({ done: 1, total: 10, failed: 0 });
    at(6000);
    progress.tick();
    progress.suspend();
    progress.suspend();
    progress.resume();
    at(8000);
    progress.update({ done: 2, total: 10, failed: 1 });
    progress.finish();
    progress.update({ done: 3, total: 10, failed: 1 });
    progress.tick();
    progress.resume();
    progress.finish();
    expect(writes).toEqual([
      `${CLEAR_LINE}${text(0, 10, 0, "0:00", "-:--")}`,
      `${CLEAR_LINE}${text(1, 10, 0, "0:05", "0:45")}`,
      `${CLEAR_LINE}${text(1, 10, 0, "0:06", "0:54")}`,
      CLEAR_LINE,
      `${CLEAR_LINE}${text(1, 10, 0, "0:06", "0:54")}`,
      `${CLEAR_LINE}${text(2, 10, 1, "0:08", "0:32")}`,
      CLEAR_LINE,
    ]);
    expect(CLEAR_LINE).toBe("\r\u001b[2K");
  });
});

describe("on a narrow terminal", () => {
  it("the live line is cut to one column less than the width, so it never wraps and rewrites in place", () => {
    const writes: string[] = [];
    const progress = createProgress({
      mode: "tty",
      label: "relay-conformance run",
      unit: "cases",
      write: (t) => writes.push(t),
      now: () => 0,
      columns: 40,
    });
    progress.update({ done: 1, total: 10, failed: 0 });
    expect(writes).toEqual([
      `${CLEAR_LINE}${"relay-conformance run: 1/10 cases (10%), 0 failed, 0:00 elapsed, ETA 0:00".slice(0, 39)}`,
    ]);
    expect(writes[0]!.length - CLEAR_LINE.length).toBe(39);
  });
});

describe("off a terminal: a plain line every 10% or every 10 s, whichever comes first", () => {
  it("a line at each tenth of the work, none in between", () => {
    const { writes, at, progress } = fake("lines");
    progress.update({ done: 0, total: 20, failed: 0 });
    for (let done = 1; done <= 20; done++) {
      at(done * 100);
      progress.update({ done, total: 20, failed: done >= 15 ? 1 : 0 });
    }
    expect(writes).toHaveLength(10);
    expect(writes[0]).toBe(`${text(2, 20, 0, "0:00", "0:02")}\n`);
    expect(writes[6]).toBe(`${text(14, 20, 0, "0:01", "0:01")}\n`);
    expect(writes[7]).toBe(`${text(16, 20, 1, "0:02", "0:00")}\n`);
    expect(writes[9]).toBe(`${text(20, 20, 1, "0:02", "0:00")}\n`);
    expect(writes.every((w) => PROGRESS_LINE.test(w.slice(0, -1)))).toBe(true);
  });

  it("finish adds a last line when the counts moved since the last one (a clause failing after 100%), else none", () => {
    const stale = fake("lines");
    stale.progress.update({ done: 0, total: 4, failed: 0 });
    stale.at(1000);
    stale.progress.update({ done: 4, total: 4, failed: 3 });
    stale.at(1500);
    stale.progress.update({ done: 4, total: 4, failed: 4 });
    stale.progress.finish();
    stale.progress.finish();
    expect(stale.writes).toEqual([`${text(4, 4, 3, "0:01", "0:00")}\n`, `${text(4, 4, 4, "0:02", "0:00")}\n`]);
    const current = fake("lines");
    current.progress.update({ done: 0, total: 4, failed: 0 });
    current.at(1000);
    current.progress.update({ done: 4, total: 4, failed: 1 });
    current.progress.finish();
    expect(current.writes).toEqual([`${text(4, 4, 1, "0:01", "0:00")}\n`]);
  });

  it("a line after 10 s without one, from a tick or an update; a tenth resets the 10 s", () => {
    const { writes, at, progress } = fake("lines");
    at(1000);
    progress.tick(); // not planned yet
    progress.update({ done: 0, total: 1000, failed: 0 });
    at(3000);
    progress.update({ done: 1, total: 1000, failed: 0 });
    at(9999);
    progress.tick();
    expect(writes).toEqual([]);
    at(10_000);
    progress.tick();
    at(15_000);
    progress.tick();
    at(20_000);
    progress.update({ done: 2, total: 1000, failed: 0 });
    at(21_000);
    progress.update({ done: 100, total: 1000, failed: 0 });
    at(25_000);
    progress.update({ done: 101, total: 1000, failed: 0 });
    at(30_999);
    progress.tick();
    at(31_000);
    progress.tick();
    progress.suspend();
    progress.resume();
    progress.finish();
    at(60_000);
    progress.tick();
    expect(writes).toEqual([
      `relay-conformance run: 1/1000 cases (0%), 0 failed, 0:10 elapsed, ETA 2:46:30\n`,
      `relay-conformance run: 2/1000 cases (0%), 0 failed, 0:20 elapsed, ETA 2:46:20\n`,
      `relay-conformance run: 100/1000 cases (10%), 0 failed, 0:21 elapsed, ETA 3:09\n`,
      `relay-conformance run: 101/1000 cases (10%), 0 failed, 0:31 elapsed, ETA 4:36\n`,
    ]);
  });
});

describe("startProgress: a command's reporter and the io it prints through", () => {
  /** An io that logs [stream, text] in order, a timer the test fires by hand. */
  function rig(progress: CommandIo["progress"]): {
    io: CommandIo;
    log: [string, string][];
    fire: () => void;
    stopped: () => boolean;
    everyMs: () => number | undefined;
    clock: {
      now: () => number;
      startTimer: (tick: () => void, everyMs: number) => () => void;
    };
  } {
    const log: [string, string][] = [];
    let tick: (() => void) | undefined;
    let every: number | undefined;
    let stopped = false;
    const io: CommandIo = {
      stdout: (t) => log.push(["out", t]),
      stderr: (t) => log.push(["err", t]),
      cwd: "/",
      ...(progress === undefined ? {} : { progress }),
    };
    const clock = {
      now: () => 2000,
      startTimer: (fn: () => void, ms: number) => {
        tick = fn;
        every = ms;
        return () => (stopped = true);
      },
    };
    return {
      io,
      log,
      fire: () => tick?.(),
      stopped: () => stopped,
      everyMs: () => every,
      clock,
    };
  }

  it("no progress without io.progress, or with --quiet: the same io back, no timer", () => {
    for (const [mode, quiet] of [
      [undefined, false],
      ["tty", true],
      ["lines", true],
    ] as const) {
      const r = rig(mode);
      const { progress, io } = startProgress(r.io, "relay-conformance run", "cases", quiet, r.clock);
      progress.update({ done: 10, total: 10, failed: 0 });
      progress.finish();
      expect(io).toBe(r.io);
      expect(r.log).toEqual([]);
      expect(r.everyMs()).toBeUndefined();
    }
  });

  it("on a terminal, any line printed erases the live line first and redraws it after; finish stops the timer", () => {
    const r = rig("tty");
    const { progress, io } = startProgress(r.io, "relay-conformance run", "cases", false, r.clock);
    expect(r.everyMs()).toBe(TICK_MS);
    const live = `${CLEAR_LINE}relay-conformance run: 1/4 cases (25%), 0 failed, 0:00 elapsed, ETA 0:00`;
    progress.update({ done: 1, total: 4, failed: 0 });
    io.stdout("PASS  FORM-MISSING\n");
    io.stderr("a note\n");
    r.fire();
    progress.finish();
    io.stdout("table\n");
    expect(r.stopped()).toBe(true);
    expect(r.log).toEqual([
      ["err", live],
      ["err", CLEAR_LINE],
      ["out", "PASS  FORM-MISSING\n"],
      ["err", live],
      ["err", CLEAR_LINE],
      ["err", "a note\n"],
      ["err", live],
      ["err", live],
      ["err", CLEAR_LINE],
      ["out", "table\n"],
    ]);
  });

  it("off a terminal, lines pass through untouched and progress lines go to stderr", () => {
    const r = rig("lines");
    const { progress, io } = startProgress(r.io, "relay-conformance replay", "goldens", false, r.clock);
    progress.update({ done: 0, total: 2, failed: 0 });
    io.stdout("PASS golden a\n");
    progress.update({ done: 1, total: 2, failed: 0 });
    progress.finish();
    expect(io.stdout).toBe(r.io.stdout);
    expect(r.stopped()).toBe(true);
    expect(r.log).toEqual([
      ["out", "PASS golden a\n"],
      ["err", "relay-conformance replay: 1/2 goldens (50%), 0 failed, 0:00 elapsed, ETA 0:00\n"],
    ]);
  });
});
