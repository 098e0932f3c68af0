// One abort listener per caller signal, however many children or requests are in flight. Handing the
// run's one signal to every spawned child or HTTP request put `concurrency` listeners on it (node's spawn
// and fetch each add one for as long as the work lives: MaxListenersExceededWarning from 11 on). Each gets
// its own controller instead, aborted by the single listener registered here on the caller's signal.
const linked = new WeakMap<AbortSignal, Set<AbortController>>();

/** Aborts `own` when `parent` aborts; the returned function unlinks it once its work is done. */
export function linkAbort(parent: AbortSignal | undefined, own: AbortController): () => void {
  if (!parent) return () => undefined;
  if (parent.aborted) {
    own.abort(parent.reason);
    return () => undefined;
  }
  let set = linked.get(parent);
  if (!set) {
    const fresh = new Set<AbortController>();
    linked.set(parent, fresh);
    parent.addEventListener(
      'abort',
      () => {
        for (const c of fresh) c.abort(parent.reason);
        fresh.clear();
      },
      { once: true },
    );
    set = fresh;
  }
  const inFlight = set;
  inFlight.add(own);
  return () => inFlight.delete(own);
}
