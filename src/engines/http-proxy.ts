// Sending an HTTP engine's request through a proxy (which one: http-proxy-env.ts). Imported by http-fetch.ts
// only when a proxy is set, so a run without one never loads node:tls for it.
//
//   https target   a CONNECT tunnel to host:port through the proxy, TLS to the target inside it (the
//                  certificate checked against the target's name, as without a proxy); the tunnel is a
//                  pooled keep-alive socket of an https.Agent, so calls one after another reuse it.
//   http target    the request sent to the proxy itself with the absolute URI as its path (RFC 9112
//                  §3.2.2), over a keep-alive agent to the proxy.
//   credentials    `http://user:pass@proxy:3128` becomes `Proxy-Authorization: Basic …` on the CONNECT or
//                  on each forwarded request; it is never sent to the target.
//
// Why not a package: undici's ProxyAgent is a dispatcher for undici's fetch, which the engines left for
// CPU reasons (http-fetch.ts), not an agent node:http takes. https-proxy-agent and http-proxy-agent (with
// agent-base, debug and a NO_PROXY reader beside them) would do it as node:http agents, three or four
// packages for what Node's own Agent does with one createConnection: open the tunnel, hand back the TLS socket.
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import * as tls from 'node:tls';
import type { Duplex } from 'node:stream';

/** How a request is sent: the node:http request function, its agent, and what to change in its options. */
export interface ProxyTransport {
  request: typeof http.request;
  agent: http.Agent;
  /** The options of a request to `target` through this proxy, from those of the direct request. */
  route(options: http.RequestOptions, target: URL): http.RequestOptions;
  /** Headers the proxy (not the target) is sent on each request: Proxy-Authorization for an http target. */
  headers: string[];
}

/** A proxy that takes longer than this to open a tunnel is taken as gone (the request's own timer still runs). */
const CONNECT_TIMEOUT_MS = 60_000;

const transports = new Map<string, ProxyTransport>();

/** The transport for targets of one scheme through `proxy`, one per proxy and scheme per process. */
export function proxyTransport(proxy: URL, secureTarget: boolean): ProxyTransport {
  const key = `${secureTarget ? 's' : 'p'} ${proxy.href}`;
  let t = transports.get(key);
  if (!t) {
    t = secureTarget ? tunnelTransport(proxy) : forwardTransport(proxy);
    transports.set(key, t);
  }
  return t;
}

function basicAuth(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined;
  return `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
}

const proxyPort = (proxy: URL): number => Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));

/** http targets: the request goes to the proxy, naming the target by its absolute URI. */
function forwardTransport(proxy: URL): ProxyTransport {
  const secureProxy = proxy.protocol === 'https:';
  const agent = secureProxy ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const auth = basicAuth(proxy);
  return {
    request: secureProxy ? https.request : http.request,
    agent,
    headers: auth ? ['proxy-authorization', auth] : [],
    route: (options, target) => ({ ...options, protocol: proxy.protocol, hostname: proxy.hostname.replace(/^\[|\]$/g, ''), host: undefined, port: proxyPort(proxy), path: target.href }),
  };
}

/** An https.Agent whose sockets are TLS inside a CONNECT tunnel; pooled per target like any https socket. */
class TunnelAgent extends https.Agent {
  constructor(private readonly proxy: URL) {
    super({ keepAlive: true });
  }

  // Node's Agent takes a socket given later through the callback (lib/_http_agent.js createSocket).
  override createConnection(options: http.RequestOptions & tls.ConnectionOptions, done?: (err: Error | null, socket: Duplex) => void): Duplex | undefined {
    const host = String(options.hostname ?? options.host ?? 'localhost');
    const port = Number(options.port ?? 443);
    const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const auth = basicAuth(this.proxy);
    const open = (this.proxy.protocol === 'https:' ? https.request : http.request)({
      protocol: this.proxy.protocol,
      hostname: this.proxy.hostname.replace(/^\[|\]$/g, ''),
      port: proxyPort(this.proxy),
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...(auth ? { 'proxy-authorization': auth } : {}) },
      agent: false,
      timeout: CONNECT_TIMEOUT_MS,
    });
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      open.destroy();
      done?.(err, undefined as never);
    };
    open.once('timeout', () => fail(new Error(`the proxy ${this.proxy.host} opened no tunnel to ${authority} within ${CONNECT_TIMEOUT_MS / 1000} s`)));
    open.once('error', (err) => fail(Object.assign(new Error(`proxy ${this.proxy.host}: ${err.message}`), { code: (err as NodeJS.ErrnoException).code })));
    open.once('response', (res) => {
      // A proxy that answers CONNECT with anything but a 2xx (407 without credentials, 403 for a refused host).
      res.resume();
      fail(new Error(`the proxy ${this.proxy.host} refused the tunnel to ${authority}: ${res.statusCode} ${res.statusMessage ?? ''}`.trim()));
    });
    open.once('connect', (res, socket, head) => {
      if (settled) return socket.destroy();
      if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) {
        socket.destroy();
        return fail(new Error(`the proxy ${this.proxy.host} refused the tunnel to ${authority}: ${res.statusCode} ${res.statusMessage ?? ''}`.trim()));
      }
      settled = true;
      if (head.length > 0) socket.unshift(head);
      // The target's name, not the proxy's, is what the certificate is checked against.
      const servername = options.servername ?? (isIP(host) ? undefined : host);
      // Only TLS settings pass on: the request's own options (its path, headers, agent) are no socket's business.
      const { ca, cert, key, pfx, passphrase, rejectUnauthorized, checkServerIdentity, minVersion, maxVersion, ciphers, ALPNProtocols } = options;
      const settings = Object.fromEntries(Object.entries({ ca, cert, key, pfx, passphrase, rejectUnauthorized, checkServerIdentity, minVersion, maxVersion, ciphers, ALPNProtocols }).filter(([, v]) => v !== undefined));
      const secure = tls.connect({ ...settings, socket, host, port, ...(servername ? { servername } : {}) });
      done?.(null, secure);
    });
    open.end();
    return undefined;
  }
}

/** https targets: TLS inside a CONNECT tunnel; the request itself is written as to the target directly. */
function tunnelTransport(proxy: URL): ProxyTransport {
  return { request: https.request, agent: new TunnelAgent(proxy), headers: [], route: (options) => options };
}
