/**
 * Runs tasks with at most `lanes` in flight; each task receives its lane number, from `firstLane` on (lanes own
 * per-lane resources).
 */
export async function runPool<T>(
  tasks: readonly ((lane: number) => Promise<T>)[],
  lanes: number,
  firstLane = 0,
): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async (lane: number): Promise<void> => {
    while (next < tasks.length) {
      const index = next;
      next += 1;
      const task = tasks[index];
      if (task) results[index] = await task(lane);
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(lanes, tasks.length)) }, (_, lane) => worker(firstLane + lane)),
  );
  return results;
}
