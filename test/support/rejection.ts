// Awaiting a promise that must reject.

/**
 * The rejection of `promise`; fails with `expected` when it resolves. With `type`, a rejection of any other type is
 * rethrown (so an unexpected error surfaces as itself).
 */
export async function rejectionOf<E = unknown>(
  promise: Promise<unknown>,
  expected: string,
  type?: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    if (type === undefined || error instanceof type) return error as E;
    throw error;
  }
  throw new Error(expected);
}
