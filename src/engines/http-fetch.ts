// The transport of the HTTP engines, behind the fetch interface (http-json.ts sends every openai and
// anthropic call through it): one request over node:http / node:https with a keep-alive agent, the answer
// read whole and returned as a Response-shaped ApiResponse (http-response.ts).
//
// Why not the global fetch: at 64 requests in flight, Node's built-in fetch (undici through web streams)
// cost ≈ 1.7 ms of CPU per call against a loopback server — most of the evaluator's per-call CPU, more than
// judging, the results line and accounting together (`npm run bench`, docs/benchmark.md). A JSON API
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
// Redirects: 307 and 308 are followed as fetch follows them — same method, same body, at most
// MAX_REDIRECTS hops (fetch's 20), and a hop to another origin drops the credentials (Authorization, as
// the Fetch standard says, and the providers' own key headers with it). 301, 302 and 303 are answered as
// they are: fetch would re-send a POST to them as a GET without its body, which no chat API answers; the
// status and Location in the engine's error say which base_url to write instead.
//
// apiRequest also takes a route: the environment whose proxy variables apply (http-proxy-env.ts; the
// machinery in http-proxy.ts is imported only when one applies) and the largest answer it reads (an
// engine's max_response_mib). apiFetch keeps the global fetch's contract: no proxy, no cap.
//
// Nothing here runs at import: the engine index imports every engine, and touching the global Headers
// loads Node's fetch implementation (≈ 35 ms) and node:https loads TLS — a mock or CLI-engine run needs neither.
import { createRequire } from 'node:module';
import { urlToHttpOptions } from 'node:url';
import { ApiHeaders, ApiResponse } from './http-response.js';
import { proxyFor } from './http-proxy-env.js';
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type { ProxyTransport } from './http-proxy.js';

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
  url: URL;
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
  else t = { url, secure: url.protocol === 'https:', options: urlToHttpOptions(url), host: url.host };
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

/** What a route applies to a request: where proxy variables are read, and the largest answer read. */
export interface Route {
  /** The engine's environment (HttpEngineOptions.env); absent: no proxy, as the global fetch on Node 20. */
  env?: NodeJS.ProcessEnv;
  /** Bytes of answer body read at most; a larger answer rejects with ResponseTooLargeError. */
  maxBytes?: number;
}

/** fetch's own limit of redirects followed for one request. */
export const MAX_REDIRECTS = 20;
/** Dropped on a redirect to another origin: the target's credentials must not reach a third party. */
const CREDENTIALS = new Set(['authorization', 'x-api-key', 'api-key', 'cookie']);

/** An answer longer than the route's maxBytes: the request is ended there, its socket not reused. */
export class ResponseTooLargeError extends Error {
  override name = 'ResponseTooLargeError';
  constructor(readonly limit: number) {
    super(`the answer is larger than ${limit} bytes`);
  }
}

/** More than MAX_REDIRECTS hops: a TypeError as fetch rejects with, carrying the last redirect's status. */
export class TooManyRedirectsError extends TypeError {
  override name = 'TooManyRedirectsError';
  constructor(
    readonly status: number,
    location: string,
  ) {
    super(`redirect count exceeded: more than ${MAX_REDIRECTS} redirects, the last ${status} to ${location}`);
  }
}

let proxies: typeof import('./http-proxy.js') | undefined;

/**
 * Each route's proxy per URL, decided on its first request: decided again on every call, each read a
 * process.env variable (a native lookup apiece) and, through a proxy, parsed its URL again. A route is an
 * engine's, made once per run with the run's environment. A proxy variable that cannot be used is not
 * remembered: every request reports it.
 */
const proxies_ = new WeakMap<Route, Map<string, URL | null>>();

/** The proxy a request to `to` takes under `route`, or undefined to go direct (and await nothing). */
function proxyOf(to: Target, route: Route): URL | undefined {
  if (!route.env) return undefined;
  let memo = proxies_.get(route);
  if (!memo) proxies_.set(route, (memo = new Map()));
  let p = memo.get(to.url.href);
  if (p === undefined) {
    p = proxyFor(to.url, route.env) ?? null;
    // Bounded as `targets` is: a caller putting ids in its URLs must not grow this without end.
    if (memo.size >= 256) memo.clear();
    memo.set(to.url.href, p);
  }
  return p ?? undefined;
}
async function proxyTransport(proxy: URL, to: Target): Promise<ProxyTransport> {
  return (proxies ??= await import('./http-proxy.js')).proxyTransport(proxy, to.secure);
}

/** Loads what a URL is sent with (node:https brings TLS; a proxy, its module) now rather than inside the first call. */
export async function warmTransport(href: string, route: Route = {}): Promise<void> {
  const to = target(href);
  if (!to) return;
  const proxy = proxyOf(to, route);
  if (proxy) await proxyTransport(proxy, to);
  else transport(to.secure);
}

/** A fetch for JSON APIs: same contract as the global one for string (or absent) bodies. */
export const apiFetch: typeof fetch = (input: FetchInput, init: FetchInit = {}) => {
  const body = init.body;
  // A Request, or a body that is not a string, goes to the global fetch. The string test comes first:
  // naming the global Request loads Node's fetch implementation (≈ 20–35 ms) inside the first call.
  if ((typeof input !== 'string' && !(input instanceof URL)) || (body !== undefined && body !== null && typeof body !== 'string')) return fetch(input, init);
  const href = typeof input === 'string' ? input : input.href;
  if (!target(href)) return fetch(input, init);
  return apiRequest(href, init as FetchInit & { body?: string | null }) as unknown as Promise<Response>;
};

/** One request with a string body, its 307/308 redirects followed; resolves with the whole answer. */
export async function apiRequest(href: string, init: FetchInit & { body?: string | null } = {}, route: Route = {}): Promise<ApiResponse> {
  const signal = init.signal ?? undefined;
  let headers = init.headers;
  let url = href;
  for (let hop = 0; ; hop++) {
    if (signal?.aborted) throw abortError(signal);
    const to = target(url);
    if (!to) throw new TypeError(`fetch failed: ${hop ? 'a redirect to ' : ''}a URL that is not plain http(s) or carries credentials`);
    const proxy = proxyOf(to, route);
    const via = proxy ? await proxyTransport(proxy, to) : undefined;
    const res = await once(url, to, via ?? transport(to.secure), via, init.method ?? 'GET', headers, init.body ?? undefined, signal, route.maxBytes, hop > 0);
    if ((res.status !== 307 && res.status !== 308) || init.redirect === 'manual') return res;
    const location = res.headers.get('location');
    if (location === null) return res;
    if (init.redirect === 'error') throw new TypeError(`fetch failed: redirect (${res.status}) where none is allowed`);
    if (hop >= MAX_REDIRECTS) throw new TooManyRedirectsError(res.status, location);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new TypeError(`fetch failed: a ${res.status} redirect to an invalid URL`);
    }
    if (next.origin !== to.url.origin) headers = withoutCredentials(headers);
    url = next.href;
  }
}

/** The headers less the credentials, for a hop to another origin. */
function withoutCredentials(h: FetchInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  const keep = (v: string, k: string) => {
    if (!CREDENTIALS.has(k.toLowerCase())) out[k.toLowerCase()] = v;
  };
  if (h !== null && typeof h === 'object' && Object.getPrototypeOf(h) === Object.prototype) for (const [k, v] of Object.entries(h as Record<string, string>)) keep(String(v), k);
  else (h instanceof Headers ? h : new Headers(h)).forEach(keep);
  return out;
}

function once(
  href: string,
  to: Target,
  t: Transport | ProxyTransport,
  proxy: ProxyTransport | undefined,
  method: string,
  headersInit: FetchInit['headers'],
  body: string | undefined,
  signal: AbortSignal | undefined,
  maxBytes: number | undefined,
  redirected: boolean,
): Promise<ApiResponse> {
  return new Promise<ApiResponse>((resolve, reject) => {
    const headers = headerList(headersInit, to.host, body !== undefined ? Buffer.byteLength(body) : undefined);
    if (proxy) headers.push(...proxy.headers);
    const options = { ...to.options, method, headers, agent: t.agent };
    const req = t.request(proxy ? proxy.route(options, to.url) : options);
    const onAbort = () => req.destroy(abortError(signal!) as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    const fail = (err: Error) => {
      done();
      reject(signal?.aborted ? abortError(signal) : err);
    };
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const tooLarge = () => {
        // Destroyed, not drained: the rest of a runaway answer is never read.
        req.destroy();
        fail(new ResponseTooLargeError(maxBytes!));
      };
      // Counted as it arrives rather than read from content-length: touching res.headers builds Node's header
      // object for every answer (measured ≈ 5% of an engine call's CPU), and a chunked answer has no length.
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (maxBytes !== undefined && size > maxBytes) return tooLarge();
        chunks.push(c);
      });
      res.on('error', fail);
      res.on('end', () => {
        done();
        const status = res.statusCode ?? 0;
        // What the Response constructor refuses (a broken proxy): a connection-level failure, as fetch reports it.
        if (status < 200 || status > 599) return reject(new TypeError(`invalid HTTP response status ${status}`));
        const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        resolve(new ApiResponse(raw, status, res.statusMessage ?? '', new ApiHeaders(res.rawHeaders), href, redirected));
      });
    });
    req.end(body);
  });
}
