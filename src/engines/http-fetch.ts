// The `fetch` the HTTP engines hand their SDKs (both take a `fetch` option): one request over node:http /
// node:https with a keep-alive agent, the answer read whole and returned as a standard Response.
//
// Why not the global fetch: at 64 requests in flight, Node's built-in fetch (undici through web streams)
// cost ≈ 1.7 ms of CPU per call against a loopback server — most of the evaluator's per-call CPU, more than
// judging, the results line and accounting together (`npm run bench`, README "Benchmark"). A JSON API
// answer is small and read whole anyway, so the streaming machinery buys nothing here.
//
// What the SDKs rely on is kept: an abort (their timeout, our signal) rejects with a DOMException named
// AbortError, so they report a timeout or user abort as before; a refused or dropped connection rejects
// with the socket's error, which they wrap as a connection error. Bodies the SDKs send for chat and
// messages calls are strings; anything else (a stream, form data) goes to the global fetch unchanged.
//
// Nothing here runs at import: the engine index imports every engine, and touching the global Response
// loads Node's fetch implementation (≈ 35 ms) and node:https loads TLS — a mock or CLI-engine run needs neither.
import { createRequire } from 'node:module';
import type * as Http from 'node:http';
import type * as Https from 'node:https';

const require = createRequire(import.meta.url);

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

interface Transport {
  request: typeof Http.request;
  agent: Http.Agent;
}
// One pool per process, as the global fetch has: sockets are reused across engines and calls.
let http: Transport | undefined;
let https: Transport | undefined;
function transport(secure: boolean): Transport {
  if (secure) return (https ??= open(require('node:https') as typeof Https));
  return (http ??= open(require('node:http') as typeof Http));
}
const open = (m: typeof Http | typeof Https): Transport => ({ request: m.request, agent: new m.Agent({ keepAlive: true }) });

function headerPairs(h: FetchInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (h instanceof Headers) h.forEach((v, k) => (out[k] = v));
  else if (Array.isArray(h)) for (const [k, v] of h) out[k.toLowerCase()] = String(v);
  else for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = String(v);
  return out;
}

function abortError(signal: AbortSignal): unknown {
  const r: unknown = signal.reason;
  return r instanceof Error && r.name === 'AbortError' ? r : new DOMException('This operation was aborted', 'AbortError');
}

/**
 * A Response whose body was read whole: text(), json() and arrayBuffer() answer from the buffer, without the
 * web stream a body-carrying Response builds (≈ 0.1 ms per call). `body` stays null: nothing here streams.
 */
function bufferedResponseClass() {
  return class BufferedResponse extends Response {
    #raw: Buffer | undefined;
    constructor(raw: Buffer, init: ResponseInit, rawHeaders?: string[]) {
      super(null, init);
      this.#raw = raw;
      // Appended in place: a Headers passed in the init is copied entry by entry into a second one.
      if (rawHeaders) for (let i = 0; i + 1 < rawHeaders.length; i += 2) this.headers.append(rawHeaders[i]!, rawHeaders[i + 1]!);
    }
    #take(): Buffer {
      if (this.#raw === undefined) throw new TypeError('Body is unusable: Body has already been read');
      const raw = this.#raw;
      this.#raw = undefined;
      return raw;
    }
    override get bodyUsed(): boolean {
      return this.#raw === undefined;
    }
    override text(): Promise<string> {
      try {
        return Promise.resolve(this.#take().toString('utf8'));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    override async json(): Promise<any> {
      return JSON.parse(await this.text()) as unknown;
    }
    override arrayBuffer(): Promise<ArrayBuffer> {
      try {
        const b = this.#take();
        return Promise.resolve(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    override clone(): Response {
      const raw = this.#raw;
      if (raw === undefined) throw new TypeError('Response.clone: Body has already been consumed.');
      return new BufferedResponse(raw, { status: this.status, statusText: this.statusText, headers: this.headers });
    }
  };
}
let BufferedResponse: ReturnType<typeof bufferedResponseClass> | undefined;

/** A fetch for JSON APIs: same contract as the global one for string (or absent) bodies. */
export const apiFetch: typeof fetch = (input: FetchInput, init: FetchInit = {}) => {
  const body = init.body;
  if (input instanceof Request || (body !== undefined && body !== null && typeof body !== 'string')) return fetch(input, init);
  const url = new URL(typeof input === 'string' ? input : input.href);
  // The global fetch's contract, refusals included: a URL with credentials is refused there (node:http would
  // send them as Basic auth beside the SDK's own Authorization header).
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return fetch(input, init);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise<Response>((resolve, reject) => {
    const headers = headerPairs(init.headers);
    if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
    const t = transport(url.protocol === 'https:');
    const req = t.request(url, { method: init.method ?? 'GET', headers, agent: t.agent });
    const onAbort = () => req.destroy(abortError(signal!) as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    req.on('error', (err) => {
      done();
      reject(signal?.aborted ? abortError(signal) : err);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => {
        done();
        reject(signal?.aborted ? abortError(signal) : err);
      });
      res.on('end', () => {
        done();
        const status = res.statusCode ?? 0;
        // A Response may not carry a body with 204/304 (the constructor throws).
        try {
          BufferedResponse ??= bufferedResponseClass();
          resolve(new BufferedResponse(Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '' }, res.rawHeaders));
        } catch (err) {
          // A status outside 200–599 (a broken proxy): a connection-level failure, as fetch reports it.
          reject(new TypeError(`invalid HTTP response status ${status}`, { cause: err }));
        }
      });
    });
    req.end(body ?? undefined);
  });
};
