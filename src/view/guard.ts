// Who may talk to `whet view` (issue 29: safe by default). The server binds 127.0.0.1 only, and every request
// must also (1) name this server in its Host header — a page on another site that rebinds its DNS name to
// 127.0.0.1 sends its own name, and is refused; (2) carry the random token printed with the URL, as Jupyter
// does, so another local user or a page guessing the port reads nothing; (3) when it changes something,
// carry the token in a header a cross-site form cannot set and come from this origin (Origin, else
// Sec-Fetch-Site). Pure functions: the server (server.ts) applies them before any route is looked at.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** 32 random bytes as hex: what the printed URL carries. */
export const newToken = (): string => randomBytes(32).toString('hex');

export const TOKEN_HEADER = 'x-whet-token';
/**
 * The URL's query parameter that carries the token. Not `token=`: everything whet prints passes the one
 * redaction (src/core/redact.ts), which hides `token=…` as a secret of the user's accounts — this one is a
 * capability for this one server, and the person must be able to open the URL as printed.
 */
export const SESSION_PARAM = 'session';

export interface Refusal {
  status: number;
  why: string;
}

const sameToken = (given: string | undefined, token: string): boolean => {
  if (typeof given !== 'string' || given.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(token));
};

const one = (h: string | string[] | undefined): string | undefined => (Array.isArray(h) ? h[0] : h);

/** The Host values this server answers to: its loopback address and `localhost`, with its port. */
export const allowedHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

/** Why a request is refused, or undefined when it may go on to a route. */
export function refusal(req: { method: string; headers: IncomingHttpHeaders; url: URL }, token: string, port: number): Refusal | undefined {
  const host = one(req.headers.host)?.toLowerCase();
  if (!host || !allowedHosts(port).includes(host)) return { status: 421, why: `this viewer answers only to 127.0.0.1:${port}; Host ${JSON.stringify(host ?? '')} refused` };
  const method = req.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') {
    const given = req.url.searchParams.get(SESSION_PARAM) ?? one(req.headers[TOKEN_HEADER]);
    return sameToken(given ?? undefined, token) ? undefined : { status: 403, why: 'a token is needed: open the URL `whet view` printed' };
  }
  if (method !== 'POST') return { status: 405, why: `${method} is not served` };
  // A change: the token in a header only (a form or an <img> on another site cannot set one), and this origin.
  if (!sameToken(one(req.headers[TOKEN_HEADER]), token)) return { status: 403, why: `a change needs the token in the ${TOKEN_HEADER} header` };
  const origin = one(req.headers.origin);
  const site = one(req.headers['sec-fetch-site']);
  if (origin !== undefined) {
    if (!allowedHosts(port).some((h) => origin === `http://${h}`)) return { status: 403, why: `cross-origin change refused (Origin ${origin})` };
  } else if (site !== 'same-origin') return { status: 403, why: 'a change must come from the viewer’s own page (no Origin or Sec-Fetch-Site: same-origin)' };
  if (!/^application\/json\b/i.test(one(req.headers['content-type']) ?? '')) return { status: 415, why: 'a change is sent as application/json' };
  return undefined;
}

/** Headers on every answer: nothing loads from elsewhere, nothing is cached, the token never leaves in a Referer. */
export const SAFE_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};
