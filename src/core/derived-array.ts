// A read-only array whose elements are computed from another array's when they are read. An evaluation
// artifact's task results are a pure function of the run's tallies, one row per task; built as a second
// array they were, at 100,000 tasks, ~13 MB alive beside the tallies while the artifact was written, which
// reads each row once. As a view, a row exists only while it is validated and serialised (or printed).
//
// It is an Array to everything that looks (Array.isArray, JSON.stringify, zod, iteration, map/filter, the
// test matchers), because a Proxy of an array is one. Writes are refused: a row changed in place would be
// lost on the next read, so it is an error (TypeError in strict code), never silently dropped.

/** `source.map(f)` as a view: `f` runs on every read of an element, on the source as it is then. */
export function derivedArray<T, U>(source: readonly T[], f: (item: T, index: number) => U): U[] {
  const at = (key: string | symbol): number | undefined => {
    if (typeof key !== 'string') return undefined;
    const i = Number(key);
    return Number.isInteger(i) && i >= 0 && i < source.length && String(i) === key ? i : undefined;
  };
  // The target only gives the proxy its shape (an array, so Array.isArray holds); its length follows the
  // source's on every read, and it never holds an element.
  const target: U[] = [];
  // util.inspect (console.log, a test's diff) shows a proxy's target, which is empty: show the elements.
  Object.defineProperty(target, Symbol.for('nodejs.util.inspect.custom'), {
    value: (depth: number, options: object, inspect: (v: unknown, o: object) => string) => (depth < 0 ? '[Array]' : inspect(source.map(f), { ...options, depth })),
    configurable: true,
  });
  const refuse = (): boolean => false;
  return new Proxy(target, {
    get(t, key, receiver) {
      if (key === 'length') return source.length;
      const i = at(key);
      return i === undefined ? Reflect.get(t, key, receiver) : f(source[i]!, i);
    },
    has(t, key) {
      return at(key) !== undefined || Reflect.has(t, key);
    },
    ownKeys() {
      return [...Array.from({ length: source.length }, (_, i) => String(i)), 'length'];
    },
    getOwnPropertyDescriptor(t, key) {
      // As the target's own length is described (writable, non-configurable), the invariant a proxy must keep.
      if (key === 'length') return { value: source.length, writable: true, enumerable: false, configurable: false };
      const i = at(key);
      return i === undefined ? undefined : { value: f(source[i]!, i), writable: false, enumerable: true, configurable: true };
    },
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
    setPrototypeOf: refuse,
  });
}
