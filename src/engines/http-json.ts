// One JSON request to an HTTP API, sent over http-fetch.ts without an SDK around it, and the account of
// what went wrong when it fails. The openai and anthropic engines send every call this way.
//
// Why no SDK: the engines already do what an SDK would (retries and their waits in http-call.ts, reading
// the answer in readChatCompletion / readMessage, their own error kinds), so the official SDKs only built
// each request and wrapped each answer — at 64 requests in flight ≈ 0.25 ms of CPU per call, 40 % of the
// call's whole cost against a loopback server (`npm run bench`, docs/benchmark.md) — and took ≈ 70 ms
// (openai) and ≈ 140 ms (@anthropic-ai/sdk) to import at the start of every HTTP run.
//
// The failures read as the SDKs' did: a status outside 2xx is an `http` failure with the provider's own
// message, type and code from the error body (providerDetails) and the response headers (retry-after);
// a refused or dropped connection is a `connection` failure naming the socket's error; a 2xx whose body
// is not JSON is a `parse` failure, never retried; so is an answer larger than `max_response_mib`, whose
// message names the setting and its value. 307/308 are followed (http-fetch.ts); a redirect loop ends as
// an `http` failure with the last status, not retried.
import type { PriceTable } from '../config/engine-schema.js';
import { VERSION } from '../core/package-info.js';
import { callWithRetries, providerDetails } from './http-call.js';
import { ConfigError } from '../core/errors.js';
import { finishHttpCall, glimpse, redact, type HttpEngineOptions, type HttpRuntime, type ResponseReading } from './http-common.js';
import { apiRequest, ResponseTooLargeError, TooManyRedirectsError, warmTransport, type Route } from './http-fetch.js';
import { ProxyConfigError, proxyFor } from './http-proxy-env.js';
import type { ApiHeaders } from './http-response.js';
import type { AttemptFailure } from './retry.js';
import type { EngineRequest, EngineResult } from './types.js';
import { isRecord } from './values.js';
import { unusableAnswer, unusableUrl } from './unusable.js';

/** A non-2xx answer, as `send` reports it to callWithRetries' classify. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: ApiHeaders,
  ) {
    super(`HTTP ${status}`);
    this.name = 'HttpStatusError';
  }
}

/** A 2xx whose body could not be read as JSON. */
export class UnreadableBodyError extends Error {
  override name = 'UnreadableBodyError';
}

/**
 * POSTs `body` as JSON and resolves with the parsed JSON answer; rejects with HttpStatusError,
 * UnreadableBodyError, ResponseTooLargeError, the socket's error or an AbortError (the signal). Header
 * names are lower case. `route`: the proxy variables' environment and the answer's cap (none by default).
 */
export async function postJson(url: string, headers: Record<string, string>, body: unknown, signal: AbortSignal, route: Route = {}): Promise<unknown> {
  const res = await apiRequest(url, { method: 'POST', headers, body: JSON.stringify(body), signal }, route);
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new HttpStatusError(res.status, text, res.headers);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new UnreadableBodyError(`${(err as Error).message}: "${glimpse(text)}"`);
  }
}

/** The size in MiB as the config writes it (0.5, 32), for messages. */
const mib = (bytes: number): string => `${Math.round((bytes / 1048576) * 1000) / 1000}`;

function errorCode(err: unknown): string | undefined {
  return isRecord(err) && typeof err['code'] === 'string' ? err['code'] : undefined;
}

/** What a postJson rejection was, as one attempt's failure. */
export function classifyPostError(err: unknown): AttemptFailure {
  if (err instanceof HttpStatusError) {
    let json: unknown;
    try {
      json = err.body ? (JSON.parse(err.body) as unknown) : undefined;
    } catch {
      json = undefined;
    }
    const d = providerDetails(json);
    const message = d.message ?? (err.body.trim() ? glimpse(json ?? err.body.trim(), 300) : `status code ${err.status} (no body)`);
    const f: AttemptFailure = { kind: 'http', status: err.status, message, headers: err.headers };
    if (d.type) f.providerType = d.type;
    if (d.code) f.providerCode = d.code;
    return f;
  }
  if (err instanceof UnreadableBodyError) return { kind: 'parse', message: `unreadable response: ${err.message}` };
  if (err instanceof ResponseTooLargeError) {
    return { kind: 'parse', message: `answer too large: more than max_response_mib (${mib(err.limit)} MiB, ${err.limit} bytes); raise it in the engine config if such answers are expected` };
  }
  if (err instanceof TooManyRedirectsError) return { kind: 'http', status: err.status, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof Error && err.name === 'AbortError') return { kind: 'aborted', message };
  // The socket's error (ECONNREFUSED, ECONNRESET, a refused TLS handshake…), or the global fetch's
  // "fetch failed" with the socket's error as its cause.
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : undefined;
  const code = errorCode(err) ?? errorCode(cause);
  const why = cause ? `${message}: ${cause.message}` : message;
  return { kind: 'connection', message: `connection error: ${why}${code && !why.includes(code) ? ` (${code})` : ''}` };
}

/** One HTTP engine's endpoint: where its calls go, with which credentials, and one call through it. */
export interface JsonEndpoint {
  /** Loads node:http, or node:https and TLS, before the task phase rather than inside its first call. */
  prepare(): Promise<void>;
  /** One engine call: `body` POSTed with the engine's retries, timeout and accounting, the answer read by `read`. */
  call(body: unknown, read: (value: unknown) => ResponseReading, request: EngineRequest, signal?: AbortSignal): Promise<EngineResult>;
}

/**
 * The endpoint `path` under `baseURL` (one slash between, as the SDKs joined them), sent JSON with the
 * engine's `auth` headers. Every message it returns has been through redact() with the key.
 */
export function jsonEndpoint(engine: string, baseURL: string, path: string, auth: Record<string, string>, rt: HttpRuntime, price: PriceTable | undefined, opts: HttpEngineOptions): JsonEndpoint {
  const url = `${baseURL.replace(/\/+$/, '')}${path}`;
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json', ...auth, 'user-agent': `whetstone/${VERSION}` };
  const route: Route = { env: rt.env, maxBytes: rt.maxResponseBytes };
  const proxy = checkedProxy(engine, url, rt.env);
  // A proxy's password is a secret too: a proxy that echoes its Proxy-Authorization must not put it in a log.
  const secrets = [rt.key, ...(proxy?.password ? [proxy.password, decodeURIComponent(proxy.password)] : [])];
  const facts = { engine, url, keyEnv: rt.keyEnv };
  // A URL that can never be sent fails every call at once, with no request made (src/engines/unusable.ts).
  const unusable = unusableUrl(facts);
  return {
    prepare: async () => {
      try {
        await warmTransport(url, route);
      } catch {
        // An unusable URL is reported by the first call, as a connection error.
      }
    },
    async call(body, read, request, signal) {
      if (unusable) return { ok: false, output: '', usage: {}, duration_ms: 0, attempts: 0, error: { kind: 'http', message: unusable, stop: unusable } };
      const started = performance.now();
      const outcome = await callWithRetries({
        engine,
        send: (s) => postJson(url, headers, body, s, route),
        classify: classifyPostError,
        policy: rt.policy,
        timeoutMs: request.timeoutMs,
        concurrency: rt.concurrency,
        secrets,
        ...(signal ? { signal } : {}),
        ...(opts.sleep ? { sleep: opts.sleep } : {}),
        ...(opts.random ? { random: opts.random } : {}),
        ...(opts.now ? { now: opts.now } : {}),
      });
      const res = finishHttpCall(engine, outcome, read, price, started, (s) => redact(s, secrets));
      const stop = unusableAnswer(res.error, facts);
      if (stop && res.error) res.error.stop = redact(stop, secrets);
      return res;
    },
  };
}

/** The proxy the endpoint's requests go through; an unusable proxy variable is a ConfigError before any call. */
function checkedProxy(engine: string, url: string, env: NodeJS.ProcessEnv): URL | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  try {
    return proxyFor(target, env);
  } catch (err) {
    if (!(err instanceof ProxyConfigError)) throw err;
    const names = target.protocol === 'https:' ? 'https_proxy / HTTPS_PROXY' : 'http_proxy / HTTP_PROXY';
    throw new ConfigError(`the ${engine} engine cannot use the proxy in ${names}: ${err.message}`, undefined, 'engine.base_url');
  }
}
