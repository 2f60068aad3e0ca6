// Load-scaled time for the harness's own bounds: on a machine whose cores are busy with other work, a relay gets less
// CPU per wall-clock second, so a bound measured in wall time turns a slow pass into a timeout. A load-scaled bound
// advances by wall time divided by the load factor: runnable tasks per core (Linux /proc/stat `procs_running`, the
// sampler itself not counted), never below 1. An idle or lightly loaded machine therefore sees the bound as given; with
// two busy loops on two cores the bound stretches about twofold. A hard wall-clock cap (MAX_STRETCH × the bound)
// keeps a hang from lasting forever however loaded the machine is. Where /proc/stat is missing the factor is 1.
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/** A load-scaled bound never stretches past this many times its wall-clock length. */
export const MAX_STRETCH = 6;
/** How often armed timers sample the load. */
export const SAMPLE_MS = 50;

const cores = Math.max(1, availableParallelism());

/** Runnable tasks per core right now (this sampler excluded); null where the kernel does not say. */
export function sampleLoad(): number | null {
  try {
    const stat = readFileSync("/proc/stat", "latin1");
    const match = /^procs_running (\d+)$/m.exec(stat);
    if (!match) return null;
    return Math.max(0, Number(match[1]) - 1) / cores;
  } catch {
    return null;
  }
}

/** The factor wall time is divided by: the load, at least 1. */
export const loadFactor = (load: number | null): number => Math.max(1, load ?? 1);

/** An armed load-scaled timer. */
interface Armed {
  readonly boundMs: number;
  readonly startedAt: number;
  scaledMs: number;
  lastAt: number;
  readonly fire: (wallMs: number) => void;
}

/** A cancellable load-scaled timeout. */
export interface LoadScaledTimer {
  cancel(): void;
}

/**
 * Load-scaled timers sharing one sampler, which runs only while a timer is armed (nothing of the clock keeps the
 * process alive after the last bound). `sample` is the load source (sampleLoad, or a fixed one in tests).
 */
export class LoadClock {
  readonly #armed = new Set<Armed>();
  #ticker: NodeJS.Timeout | undefined;

  constructor(readonly sample: () => number | null = sampleLoad) {}

  #tick(): void {
    const now = performance.now();
    const factor = loadFactor(this.sample());
    for (const t of [...this.#armed]) {
      t.scaledMs += (now - t.lastAt) / factor;
      t.lastAt = now;
      const wallMs = now - t.startedAt;
      if (t.scaledMs >= t.boundMs || wallMs >= t.boundMs * MAX_STRETCH) {
        this.#armed.delete(t);
        t.fire(Math.round(wallMs));
      }
    }
    this.#idle();
  }

  #idle(): void {
    if (this.#armed.size === 0 && this.#ticker !== undefined) {
      clearInterval(this.#ticker);
      this.#ticker = undefined;
    }
  }

  /** Calls `fire(wallMs)` once `boundMs` of load-scaled time has passed (see the file comment); cancel() disarms it. */
  timeout(boundMs: number, fire: (wallMs: number) => void): LoadScaledTimer {
    const now = performance.now();
    const timer: Armed = { boundMs, startedAt: now, scaledMs: 0, lastAt: now, fire };
    this.#armed.add(timer);
    this.#ticker ??= setInterval(() => this.#tick(), SAMPLE_MS);
    return {
      cancel: () => {
        this.#armed.delete(timer);
        this.#idle();
      },
    };
  }
}

const machine = new LoadClock();

/** A load-scaled timeout on the machine's own load (see the file comment). */
export function loadScaledTimeout(boundMs: number, fire: (wallMs: number) => void): LoadScaledTimer {
  return machine.timeout(boundMs, fire);
}
