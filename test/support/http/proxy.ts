// A real forward proxy on 127.0.0.1 for the proxy tests, and an OpenAI-compatible server (http or https)
// that records which socket each request came on, so a test can tell "through the proxy" from "direct":
// every connection the proxy opens to a target is counted with its local port, and the server records the
// remote port of each request. A request the proxy carried arrives from one of the proxy's ports.
//
// The proxy speaks both forms Node clients use: CONNECT host:port (a tunnel, counted in `tunnels`, bytes
// piped both ways untouched) and a request whose path is an absolute http:// URI (counted in `forwarded`,
// sent on to the target with the same method, headers and body). With `auth`, both need
// `Proxy-Authorization: Basic …` of those credentials and are answered 407 without it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';

export interface TestProxy {
  url: string;
  port: number;
  tunnels: string[];
  forwarded: string[];
  /** Local ports of the connections the proxy opened to targets. */
  outboundPorts: Set<number>;
  /** Requests refused for want of credentials. */
  refused: number;
  close(): Promise<void>;
}

export async function startProxy(auth?: { user: string; pass: string }): Promise<TestProxy> {
  const expected = auth ? `Basic ${Buffer.from(`${auth.user}:${auth.pass}`).toString('base64')}` : undefined;
  const sockets = new Set<Socket>();
  // One object, returned as it is: the counts are read after the requests that change them.
  const p: TestProxy = { url: '', port: 0, tunnels: [], forwarded: [], outboundPorts: new Set(), refused: 0, close: async () => undefined };
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    if (expected && req.headers['proxy-authorization'] !== expected) {
      p.refused++;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    p.forwarded.push(target.href);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const out = request({ hostname: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('socket', (s) => s.on('connect', () => p.outboundPorts.add(s.localPort ?? -1)));
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    if (expected && req.headers['proxy-authorization'] !== expected) {
      p.refused++;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="test"\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    p.tunnels.push(req.url ?? '');
    const upstream = connect(Number(port), host!.replace(/^\[|\]$/g, ''), () => {
      p.outboundPorts.add(upstream.localPort ?? -1);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  p.port = (server.address() as AddressInfo).port;
  p.url = `http://127.0.0.1:${p.port}`;
  p.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return p;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  remotePort: number;
}

export type Answer = { status?: number; headers?: Record<string, string>; body?: string };

export interface ApiServer {
  url: string;
  seen: SeenRequest[];
  answer(fn: (r: SeenRequest, i: number) => Answer): void;
  close(): Promise<void>;
}

/** An answer in the Chat Completions format the openai engine reads. */
export const completion = (content: string): Answer => ({
  body: JSON.stringify({ id: 'c1', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2 } }),
});

/** An OpenAI-compatible server on 127.0.0.1, over TLS when given a certificate. */
export async function startApiServer(tls?: { cert: string; key: string }): Promise<ApiServer> {
  const seen: SeenRequest[] = [];
  let answer: (r: SeenRequest, i: number) => Answer = () => completion('PASSWORD ok');
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: SeenRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), remotePort: req.socket.remotePort ?? -1 };
      const a = answer(r, seen.push(r) - 1);
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...(a.headers ?? {}) }).end(a.body ?? '');
    });
  };
  const server = tls ? createHttpsServer(tls, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    answer: (fn) => void (answer = fn),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A self-signed certificate for 127.0.0.1, made now with openssl (no private key kept in the repository). */
export function selfSignedCert(dir: string): { cert: string; key: string; certFile: string } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
}
