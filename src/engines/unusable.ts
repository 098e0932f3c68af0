// Failures that no retry, no later task and no other candidate gets past (issue 33): the endpoint refuses
// the key (401), the key may not use it (403), nothing answers at that path (404, 405), or the URL cannot be
// sent at all (credentials in it, a scheme other than http/https, a host that does not resolve). Counted
// as task errors one by one, a wrong key turned a whole run into errors and exited 1 as if the skill had
// failed; instead the run stops at the first one, exit 3, saying what to fix. Engines know no run: they
// mark the error (`stop`), and meterEngine (src/evaluation/metered.ts) stops the run's further calls.
import type { EngineError } from './types.js';

export interface EndpointFacts {
  /** `openai` or `anthropic`. */
  engine: string;
  /** The request URL as configured (userinfo is never repeated from it). */
  url: string;
  /** The environment variable the key is read from. */
  keyEnv: string;
}

/** The URL as messages may show it: credentials replaced, so no key reaches a log through it. */
export function shownUrl(href: string): string {
  try {
    const u = new URL(href);
    return `${u.protocol}//${u.username || u.password ? '***@' : ''}${u.host}${u.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}

/** Why no call to this URL can ever work, found before any request; undefined when it can be tried. */
export function unusableUrl(f: EndpointFacts): string | undefined {
  let u: URL;
  try {
    u = new URL(f.url);
  } catch {
    return `${f.engine}: base_url does not make a URL (${shownUrl(f.url)}): fix engine.base_url in pipeline.yaml`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `${f.engine}: base_url ${shownUrl(f.url)} is not http:// or https://: fix engine.base_url in pipeline.yaml`;
  if (u.username || u.password) {
    return `${f.engine}: base_url ${shownUrl(f.url)} carries credentials (user:…@), which are never sent: remove them from engine.base_url and put the key in the environment variable ${f.keyEnv} (engine.api_key_env)`;
  }
  return undefined;
}

/** What to fix when a call's final error means the endpoint cannot work as configured; else undefined. */
export function unusableAnswer(err: EngineError | undefined, f: EndpointFacts): string | undefined {
  if (!err) return undefined;
  const where = shownUrl(f.url);
  const said = err.message.replace(/ \([^()]*\)$/, '');
  if (err.status === 401) return `${said} — ${where} refused the API key: check the key in the environment variable ${f.keyEnv} (engine.api_key_env), and that it belongs to this base_url`;
  if (err.status === 403) return `${said} — ${where} does not let this API key do this: check the key in ${f.keyEnv}, its project or organisation, and its access to engine.model`;
  if (err.status === 404 || err.status === 405) return `${said} — nothing answers at ${where}: check engine.base_url (the engine appends its own path to it) and engine.model`;
  if (err.kind === 'http' && err.status === undefined && /ENOTFOUND/.test(err.message)) return `${said} — the host of ${where} does not resolve: check engine.base_url`;
  return undefined;
}
