// The answer apiFetch (http-fetch.ts) resolves with: a read-only, fully buffered stand-in for the fetch
// Response, holding what a reader of a fetch answer reads of one — status, ok, statusText, url, headers
// (get, has, iteration), body (null: nothing here streams), bodyUsed, text(), json(), arrayBuffer(),
// clone() — and nothing of undici's.
//
// Why not the global Response (as before, subclassed to skip its body stream): building one and its
// Headers went through undici's webidl conversions, header validation and sorting — ≈ 25 µs of CPU per
// call at 64 in flight against a loopback server, for headers node:http had already parsed and checked.
// The shape is the contract; test/integration/http-fetch.test.ts and http-json.test.ts hold it and postJson
// to it (status errors with their headers, retry-after, JSON bodies).

/** Response headers as the Fetch standard shows them: names lowercased, repeats joined by ", ", sorted. */
export class ApiHeaders implements Iterable<[string, string]> {
  #raw: readonly string[] | undefined;
  #map: Map<string, string> | undefined;
  #cookies: string[] = [];

  /** `raw` as node:http gives it (IncomingMessage.rawHeaders): name, value, name, value… */
  constructor(raw: readonly string[] = []) {
    // Read on first use: a successful answer's headers are usually never looked at (≈ 1% of a call's CPU).
    this.#raw = raw;
  }

  get #byName(): Map<string, string> {
    if (this.#map) return this.#map;
    const map = new Map<string, string>();
    const raw = this.#raw ?? [];
    this.#raw = undefined;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      const value = raw[i + 1]!;
      if (name === 'set-cookie') this.#cookies.push(value);
      const had = map.get(name);
      map.set(name, had === undefined ? value : `${had}, ${value}`);
    }
    return (this.#map = map);
  }

  get(name: string): string | null {
    return this.#byName.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#byName.has(name.toLowerCase());
  }
  getSetCookie(): string[] {
    void this.#byName;
    return [...this.#cookies];
  }
  /** Sorted by name, each set-cookie on its own, as Headers iterates. */
  *entries(): IterableIterator<[string, string]> {
    const map = this.#byName;
    for (const name of [...map.keys()].sort()) {
      if (name === 'set-cookie') for (const c of this.#cookies) yield [name, c];
      else yield [name, map.get(name)!];
    }
  }
  *keys(): IterableIterator<string> {
    for (const [k] of this.entries()) yield k;
  }
  *values(): IterableIterator<string> {
    for (const [, v] of this.entries()) yield v;
  }
  forEach(fn: (value: string, name: string, headers: ApiHeaders) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** A body decoded as the Fetch standard's text() and json() decode it: UTF-8, a leading BOM dropped. */
const utf8 = (b: Buffer): string => (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.toString('utf8', 3) : b.toString('utf8'));

/** A whole answer, its body readable once (a clone gets its own read), as a Response's is. */
export class ApiResponse {
  readonly type = 'basic';
  readonly body = null;
  #raw: Buffer | undefined;

  constructor(
    raw: Buffer,
    readonly status: number,
    readonly statusText: string,
    readonly headers: ApiHeaders,
    readonly url: string,
    /** Whether a 307/308 led here (http-fetch.ts follows them), as Response.redirected says. */
    readonly redirected = false,
  ) {
    this.#raw = raw;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }
  get bodyUsed(): boolean {
    return this.#raw === undefined;
  }
  #take(): Buffer {
    if (this.#raw === undefined) throw new TypeError('Body is unusable: Body has already been read');
    const raw = this.#raw;
    this.#raw = undefined;
    return raw;
  }
  text(): Promise<string> {
    try {
      return Promise.resolve(utf8(this.#take()));
    } catch (err) {
      return Promise.reject(err);
    }
  }
  json(): Promise<unknown> {
    try {
      return Promise.resolve(JSON.parse(utf8(this.#take())) as unknown);
    } catch (err) {
      return Promise.reject(err);
    }
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    try {
      const b = this.#take();
      return Promise.resolve(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
    } catch (err) {
      return Promise.reject(err);
    }
  }
  clone(): ApiResponse {
    if (this.#raw === undefined) throw new TypeError('Response.clone: Body has already been consumed.');
    return new ApiResponse(this.#raw, this.status, this.statusText, this.headers, this.url, this.redirected);
  }
}
