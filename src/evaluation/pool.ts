// Runs `fn` over a stream of items with at most `concurrency` in flight. Workers pull from one shared
// iterator, so only `concurrency` promises exist at any time: memory does not grow with the number of
// task attempts (a promise-per-job limiter holds one closure and one promise for every queued job).
export async function forEachConcurrent<T>(items: Iterable<T>, concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  const it = items[Symbol.iterator]();
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed) {
      const next = it.next();
      if (next.done) return;
      try {
        await fn(next.value);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const n = Math.max(1, Math.floor(concurrency));
  await Promise.all(Array.from({ length: n }, worker));
}
