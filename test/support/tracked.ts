// Per-file temp fixtures: a factory whose products are all cleaned up after the file's tests.
import { afterAll } from "vitest";

/** Wraps `make` so every fixture it creates is cleaned up in one afterAll; call it at a test file's top level. */
export function tracked<A extends unknown[], T extends { cleanup(): void }>(
  make: (...args: A) => T,
): (...args: A) => T {
  const made: T[] = [];
  afterAll(() => made.forEach((m) => m.cleanup()));
  return (...args: A): T => {
    const m = make(...args);
    made.push(m);
    return m;
  };
}
