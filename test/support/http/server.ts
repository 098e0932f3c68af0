// A real HTTP server on 127.0.0.1 (an ephemeral port) for the HTTP engine tests. Each request is recorded
// (method, path, headers, parsed JSON body, arrival time, how many requests were in flight) and answered by
// a handler: a status, headers, a body (an object is sent as JSON, a string as is), an optional delay,
// or a dropped connection. The server only ever listens on the loopback interface, and the engines under
// test are pointed at it with base_url, so no test traffic leaves the machine.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  body: unknown;
  /** ms since the server started. */
  at: number;
  /** Requests in flight when this one arrived (itself included). */
  inFlight: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Object → JSON; string → sent verbatim (with `contentType`, default application/json). */
  body?: unknown;
  contentType?: string;
  /** Wait this long before answering; the wait ends early if the client goes away. */
  delayMs?: number;
  /** Destroy the socket instead of answering (a connection error for the client). */
  drop?: boolean;
}

export type Handler = (req: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** The highest number of requests in flight at once. */
  maxInFlight(): number;
  /** Replaces the handler. */
  handle(handler: Handler): void;
  /** Answers the next requests with these replies in order, then repeats the last one. */
  script(...replies: Reply[]): void;
  close(): Promise<void>;
}

export async function startLoopbackServer(handler: Handler = () => ({ status: 404, body: { error: 'no handler' } })): Promise<LoopbackServer> {
  const started = Date.now();
  const requests: RecordedRequest[] = [];
  let current = handler;
  let inFlight = 0;
  let peak = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? (JSON.parse(text) as unknown) : undefined;
      } catch {
        body = text;
      }
      const rec: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, at: Date.now() - started, inFlight };
      const index = requests.push(rec) - 1;
      let done = false;
      const finish = (): void => {
        if (!done) {
          done = true;
          inFlight--;
        }
      };
      res.on('close', finish);
      void Promise.resolve(current(rec, index)).then((reply) => respond(res, reply, finish));
    });
  });

  function respond(res: ServerResponse, reply: Reply, finish: () => void): void {
    const send = (): void => {
      if (res.destroyed) return finish();
      if (reply.drop) {
        res.socket?.destroy();
        return finish();
      }
      const payload = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json', ...(reply.headers ?? {}) });
      res.end(payload);
    };
    if (!reply.delayMs) return send();
    const timer = setTimeout(send, reply.delayMs);
    res.on('close', () => clearTimeout(timer));
  }

  const url = await listenLoopback(server);
  return {
    url,
    requests,
    maxInFlight: () => peak,
    handle(h) {
      current = h;
    },
    script(...replies) {
      let next = 0;
      current = () => replies[Math.min(next++, replies.length - 1)] ?? { status: 500, body: 'no reply scripted' };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts `server` (an HTTP server or a raw TCP one) on 127.0.0.1, an ephemeral port; its `http://127.0.0.1:<port>`. */
export async function listenLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes `server`, its open connections first when it has any (an HTTP server keeps idle ones). */
export function closeServer(server: Server & { closeAllConnections?: () => void }): Promise<void> {
  server.closeAllConnections?.();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

/** `http://127.0.0.1:<port>` of a port that was just free: nothing listens there any more, so a connection is refused. */
export async function refusedUrl(): Promise<string> {
  const probe = createServer();
  const url = await listenLoopback(probe);
  await closeServer(probe);
  return url;
}
