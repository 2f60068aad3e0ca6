// Alternating wall-time measurement of short-lived processes (spawnSync, shell: false).
import { spawnSync } from "node:child_process";

/** One command of an alternating measurement. */
export interface BenchCommand {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly input?: Buffer;
  readonly cwd?: string;
  /** Expected exit code (or codes); a different one aborts the bench (a failing call measures nothing useful). */
  readonly exitCode?: number | readonly number[];
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Wall time of one run in ms. */
export function timeOnce(c: BenchCommand): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(c.command, c.args, {
    env: c.env ?? process.env,
    input: c.input ?? Buffer.alloc(0),
    cwd: c.cwd,
    shell: false,
    stdio: ["pipe", "pipe", "pipe"],
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error) throw r.error;
  if (![c.exitCode ?? 0].flat().includes(r.status ?? -1)) {
    throw new Error(`bench: ${c.label} exited ${r.status ?? r.signal}: ${r.stderr.toString("utf8").slice(0, 2000)}`);
  }
  return ms;
}

/** Runs every command once per round, in turn, so machine noise hits all of them alike; returns times per label. */
export function measureAlternating(
  commands: readonly BenchCommand[],
  rounds: number,
  warmup = 2,
): Map<string, number[]> {
  const times = new Map(commands.map((c) => [c.label, [] as number[]]));
  for (let round = 0; round < warmup + rounds; round++) {
    for (const c of commands) {
      const ms = timeOnce(c);
      if (round >= warmup) times.get(c.label)!.push(ms);
    }
  }
  return times;
}

/** Median of per-round ratios times[label][i] / times[baseline][i]. */
export function medianRatio(times: Map<string, number[]>, label: string, baseline: string): number {
  const a = times.get(label)!;
  const b = times.get(baseline)!;
  return median(a.map((t, i) => t / b[i]!));
}
