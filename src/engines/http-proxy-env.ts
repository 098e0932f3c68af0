// Which proxy, if any, an HTTP engine request goes through, read from the environment the engine was
// given (HttpEngineOptions.env: the run's RunEnv.env, so a test or an embedding caller sets it without
// touching process.env). The variables are read as Node users know them from curl and undici's
// EnvHttpProxyAgent:
//
//   https://… targets   https_proxy, else HTTPS_PROXY (a CONNECT tunnel through it: http-proxy.ts)
//   http://…  targets   http_proxy, else HTTP_PROXY (the request sent to the proxy with its absolute URI)
//   no_proxy, else NO_PROXY   entries split on commas or spaces, each compared with the target's host name:
//       `*`                       every host goes direct
//       `example.com`             that host and every host under it (`api.example.com`)
//       `.example.com`, `*.example.com`   the same (the leading dot or `*.` is dropped, as curl and undici do)
//       `host:port`, `[::1]:8080` only that port of it (the URL's port, or 80/443 when it names none)
//       `127.0.0.1`, `::1`        a literal address, compared as text (no CIDR ranges: undici has none either)
//
// A lower-case variable wins over its upper-case twin, as in curl and undici; an empty one counts as unset.
// A proxy written without a scheme (`proxy.corp:3128`) is an http:// proxy, as curl takes it. ALL_PROXY is
// not read (undici does not read it either). This module only reads strings: the machinery that speaks to a
// proxy (node:tls, the tunnel agent) is in http-proxy.ts, imported only when a proxy is chosen, so a run
// with no proxy set loads nothing more than before.

/** Every variable read here: what a caller that hands an engine a private environment passes along. */
export const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'] as const;

/** The proxy a request to `target` goes through, or undefined to go direct. */
export function proxyFor(target: URL, env: NodeJS.ProcessEnv): URL | undefined {
  const secure = target.protocol === 'https:';
  const raw = pick(env, secure ? 'https_proxy' : 'http_proxy');
  if (raw === undefined) return undefined;
  if (bypassed(target, pick(env, 'no_proxy'))) return undefined;
  return proxyUrl(raw);
}

/** `name` in lower case, else in upper case; undefined when both are unset or blank. */
function pick(env: NodeJS.ProcessEnv, name: string): string | undefined {
  for (const key of [name, name.toUpperCase()]) {
    const v = env[key]?.trim();
    if (v) return v;
  }
  return undefined;
}

/** The proxy's URL; a bare `host:port` is an http proxy. An unparseable value is a ProxyConfigError. */
export function proxyUrl(raw: string): URL {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ProxyConfigError(`the proxy ${JSON.stringify(redactUserinfo(raw))} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProxyConfigError(`the proxy ${url.protocol}//${url.host} speaks ${url.protocol.slice(0, -1)}, which the HTTP engines do not (an http:// or https:// proxy is needed)`);
  }
  return url;
}

/** A proxy variable whose value cannot be used: reported as the request's connection error, never thrown further. */
export class ProxyConfigError extends Error {
  override name = 'ProxyConfigError';
}

const redactUserinfo = (s: string): string => s.replace(/\/\/[^/@]*@/, '//[REDACTED]@');

/** Whether NO_PROXY sends `target` direct. */
export function bypassed(target: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = bare(target.hostname.toLowerCase());
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (const entry of noProxy.toLowerCase().split(/[\s,]+/)) {
    if (entry === '') continue;
    if (entry === '*') return true;
    const m = /^(\[[^\]]+\]|[^:]+|[^\]]*:[^\]]*:[^\]]*)(?::(\d+))?$/.exec(entry);
    if (!m) continue;
    if (m[2] !== undefined && m[2] !== port) continue;
    const name = bare(m[1]!.replace(/^\*?\./, ''));
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** An IPv6 literal without its brackets, so `[::1]` in NO_PROXY and in the URL compare alike. */
const bare = (h: string): string => (h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h);
