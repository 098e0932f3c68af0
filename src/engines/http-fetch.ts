// The transport of the HTTP engines, behind the fetch interface (http-json.ts sends every openai and
// anthropic call through it): one request over node:http / node:https with a keep-alive agent, the answer
// read whole and returned as a Response-shaped ApiResponse (http-response.ts).
//
// Why not the global fetch: at 64 requests in flight, Node's built-in fetch (undici through web streams)
// cost ≈ 1.7 ms of CPU per call against a loopback server — most of the evaluator's per-call CPU, more than
// judging, the results line and accounting together (`npm run bench`, README "Benchmark"). A JSON API
// answer is small and read whole anyway, so the streaming machinery buys nothing here.
//
// fetch's contract is kept, so a caller cannot tell the two apart where it matters: an abort rejects with
// a DOMException named AbortError; a refused or dropped connection rejects with the socket's error. Bodies
// sent for chat and messages calls are strings; anything else (a stream, form data) goes to the global
// fetch unchanged.
//
// Per call, only what differs between calls is built: a URL is parsed once (its node:http options and Host
// kept), the headers go to node:http as one raw array, and the answer is an ApiResponse, not undici's.
//
// Nothing here runs at import: the engine index imports every engine, and touching the global Headers
// loads Node's fetch implementation (≈ 35 ms) and node:https loads TLS — a mock or CLI-engine run needs neither.
import { createRequire } from 'node:module';
import { urlToHttpOptions } from 'node:url';
import { ApiHeaders, ApiResponse } from './http-response.js';
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

function abortError(signal: AbortSignal): unknown {
  const r: unknown = signal.reason;
  return r instanceof Error && r.name === 'AbortError' ? r : new DOMException('This operation was aborted', 'AbortError');
}

/** What a URL comes to for node:http, worked out once per URL: an engine sends every call to the same one. */
interface Target {
  secure: boolean;
  options: Http.RequestOptions;
  /** node:http adds no Host header to headers given as an array. */
  host: string;
}
const targets = new Map<string, Target | null>();
function target(href: string): Target | null {
  let t = targets.get(href);
  if (t !== undefined) return t;
  const url = new URL(href);
  // The global fetch's contract, refusals included: a URL with credentials is refused there (node:http would
  // send them as Basic auth beside the engine's own credentials).
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) t = null;
  else t = { secure: url.protocol === 'https:', options: urlToHttpOptions(url), host: url.host };
  // Bounded: a caller putting ids in its URLs must not grow this without end.
  if (targets.size >= 256) targets.clear();
  targets.set(href, t);
  return t;
}

/** The request headers as node:http's raw array (set one by one, each is validated and looked up again). */
function headerList(h: FetchInit['headers'], host: string, contentLength: number | undefined): string[] {
  const out: string[] = ['host', host];
  const add = (v: string, k: string) => {
    if (k === 'host') out[1] = v;
    else if (k !== 'content-length' || contentLength === undefined) out.push(k, v);
  };
  // A plain record of lower-case names (http-json.ts sends one) is taken as it is, without touching the
  // global Headers, which would load Node's fetch; node:http still validates every name and value.
  if (h !== null && typeof h === 'object' && Object.getPrototypeOf(h) === Object.prototype) {
    for (const [k, v] of Object.entries(h as Record<string, string>)) add(String(v), k.toLowerCase());
  } else {
    // A Headers, or anything else fetch takes, is read the way fetch reads it (repeats joined).
    (h instanceof Headers ? h : new Headers(h)).forEach(add);
  }
  if (contentLength !== undefined) out.push('content-length', String(contentLength));
  return out;
}

/** Loads the module a URL is sent with (node:https brings TLS) now rather than inside the first call. */
export function warmTransport(href: string): void {
  const to = target(href);
  if (to) transport(to.secure);
}

/** A fetch for JSON APIs: same contract as the global one for string (or absent) bodies. */
export const apiFetch: typeof fetch = (input: FetchInput, init: FetchInit = {}) => {
  const body = init.body;
  // A Request, or a body that is not a string, goes to the global fetch. The string test comes first:
  // naming the global Request loads Node's fetch implementation (≈ 20–35 ms) inside the first call.
  if ((typeof input !== 'string' && !(input instanceof URL)) || (body !== undefined && body !== null && typeof body !== 'string')) return fetch(input, init);
  const href = typeof input === 'string' ? input : input.href;
  const to = target(href);
  if (!to) return fetch(input, init);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise<Response>((resolve, reject) => {
    const headers = headerList(init.headers, to.host, typeof body === 'string' ? Buffer.byteLength(body) : undefined);
    const t = transport(to.secure);
    const req = t.request({ ...to.options, method: init.method ?? 'GET', headers, agent: t.agent });
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
        // What the Response constructor refuses (a broken proxy): a connection-level failure, as fetch reports it.
        if (status < 200 || status > 599) return reject(new TypeError(`invalid HTTP response status ${status}`));
        const answer = new ApiResponse(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), status, res.statusMessage ?? '', new ApiHeaders(res.rawHeaders), href);
        // Callers read the members a Response has, never its class (http-response.ts).
        resolve(answer as unknown as Response);
      });
    });
    req.end(body ?? undefined);
  });
};
