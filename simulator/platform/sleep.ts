const cell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for ms (faults must delay without the event loop running anything else). */
export function sleepSync(ms: number): void {
  // Atomics.wait takes at most ~2^31 ms per call in practice; loop for longer delays.
  let left = ms;
  while (left > 0) {
    const step = Math.min(left, 1_000_000_000);
    Atomics.wait(cell, 0, 0, step);
    left -= step;
  }
}

/** Never returns: the process keeps running, without output, until something kills it. */
export function hangForever(): never {
  for (;;) Atomics.wait(cell, 0, 0);
}
