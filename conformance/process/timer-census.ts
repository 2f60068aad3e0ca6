// What can still wake the relay under test: every timer it arms, with the earliest time it can fire. Installed in the
// relay host before any relay module loads, it wraps the timer functions a relay can reach (the globals, node:timers,
// node:timers/promises and AbortSignal.timeout) and records each timer's due time; the wrapped timer is Node's own.
// A timer armed through a function captured before this ran (inside Node, or a module loaded first) is not recorded:
// census() counts the ref'd timers Node reports beyond the recorded ones as `untracked`, and the harness then never
// calls the relay stuck (runner/hang-watch.ts). An unref'd timer armed that way cannot be seen at all.
import { createRequire, syncBuiltinESMExports } from "node:module";

interface Armed {
  /** performance.now() at which it fires first; a refreshed timer fires later, never earlier. */
  readonly due: number;
  /** For an interval: its period (it fires again within that long, for ever). */
  readonly repeatMs: number | null;
  live(): boolean;
  /** Whether Node counts it among the active resources (an unref'd timer still fires, but is not counted). */
  refed(): boolean;
}

const armed = new Set<Armed>();
const require = createRequire(import.meta.url);

type TimerFn = (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => NodeJS.Timeout;

function delayOf(ms: unknown): number {
  const n = Number(ms);
  // Node's own rule: not a number, below 1 or above 2^31-1 becomes 1 ms.
  return Number.isFinite(n) && n >= 1 && n <= 2 ** 31 - 1 ? n : 1;
}

function wrapTimer(original: TimerFn, repeat: boolean): TimerFn {
  return function (this: unknown, callback, ms, ...args) {
    const timer = original.call(this, callback, ms, ...args);
    const delay = delayOf(ms);
    const record: Armed = {
      due: performance.now() + delay,
      repeatMs: repeat ? delay : null,
      live: () => !(timer as unknown as { _destroyed?: boolean })._destroyed,
      refed: () => timer.hasRef(),
    };
    armed.add(record);
    return timer;
  };
}

function wrapPromise<A extends unknown[]>(
  original: (ms?: number, ...rest: A) => Promise<unknown>,
): (ms?: number, ...rest: A) => Promise<unknown> {
  return function (this: unknown, ms, ...rest) {
    let settled = false;
    const options = rest[1] as { ref?: boolean } | undefined;
    const record: Armed = {
      due: performance.now() + delayOf(ms),
      repeatMs: null,
      live: () => !settled,
      refed: () => options?.ref !== false,
    };
    armed.add(record);
    return original.call(this, ms, ...rest).finally(() => {
      settled = true;
    });
  };
}

let installed = false;

/** Wraps the timer functions (idempotent); call before the relay module loads. */
export function installTimerCensus(): void {
  if (installed) return;
  installed = true;
  const timers = require("node:timers") as { setTimeout: TimerFn; setInterval: TimerFn };
  const setTimeoutW = wrapTimer(globalThis.setTimeout as unknown as TimerFn, false);
  const setIntervalW = wrapTimer(globalThis.setInterval as unknown as TimerFn, true);
  globalThis.setTimeout = setTimeoutW as unknown as typeof globalThis.setTimeout;
  globalThis.setInterval = setIntervalW as unknown as typeof globalThis.setInterval;
  timers.setTimeout = setTimeoutW;
  timers.setInterval = setIntervalW;
  const promises = require("node:timers/promises") as {
    setTimeout: (ms?: number, ...rest: unknown[]) => Promise<unknown>;
  };
  promises.setTimeout = wrapPromise(promises.setTimeout);
  const timeout = AbortSignal.timeout.bind(AbortSignal);
  AbortSignal.timeout = (ms: number): AbortSignal => {
    const signal = timeout(ms);
    const record: Armed = {
      due: performance.now() + delayOf(ms),
      repeatMs: null,
      live: () => !signal.aborted,
      refed: () => false,
    };
    armed.add(record);
    return signal;
  };
  syncBuiltinESMExports();
}

/** The relay's timers right now: ms until the earliest can fire (null: none), and ref'd timers nobody recorded. */
export interface TimerCensus {
  readonly nextDueMs: number | null;
  readonly untracked: number;
}

/** Counts what can wake the process; `timeoutsBeyondBaseline` is Node's own count of ref'd timers the job added. */
export function timerCensus(timeoutsBeyondBaseline: number): TimerCensus {
  const now = performance.now();
  let next: number | null = null;
  let live = 0;
  for (const t of armed) {
    if (!t.live()) {
      armed.delete(t);
      continue;
    }
    if (t.refed()) live += 1;
    const due = t.repeatMs === null ? t.due - now : Math.min(Math.max(0, t.due - now), t.repeatMs);
    next = next === null ? Math.max(0, due) : Math.min(next, Math.max(0, due));
  }
  return { nextDueMs: next, untracked: Math.max(0, timeoutsBeyondBaseline - live) };
}
