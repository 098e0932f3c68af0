// Waiting between retries, or until a rate limit resets, without outliving Ctrl-C: the HTTP engines, the
// agent CLIs' retries and the subscription-limit pause all wait this way. A file of its own so the pause
// (which `whet status` reads) does not load the HTTP engines.

/** setTimeout as a promise that rejects when `signal` fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
