// Diagnostic logs on stderr through pino, quiet by default (WHET_LOG_LEVEL=debug|info|warn). They are
// written for the person at the terminal — `whet: warn: state lock compromised (stateDir=/x, err=…)` —
// and as pino's JSON lines only when asked (WHET_LOG_FORMAT=json), for a log collector. Results go to
// stdout and progress lines to stderr; these logs are for digging into a run. Both forms are redacted.
import { createRequire } from 'node:module';
import type pino from 'pino';
import { redactText } from './redact.js';

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

const field = (v: unknown) => (typeof v === 'string' ? (/[\s=,()]/.test(v) ? JSON.stringify(v) : v) : JSON.stringify(v));

/** One pino JSON line as one line of text: level, message, then the other fields as key=value. */
export function humanLine(json: string): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const { level, time: _time, msg, ...rest } = rec;
  const fields = Object.entries(rest).map(([k, v]) => `${k}=${field(v)}`);
  return `whet: ${LEVELS[Number(level)] ?? String(level)}: ${String(msg ?? '')}${fields.length ? ` (${fields.join(', ')})` : ''}\n`;
}

const require = createRequire(import.meta.url);

export function createLog(env: NodeJS.ProcessEnv = process.env, write: (s: string) => void = (s) => process.stderr.write(s)): pino.Logger {
  const json = env.WHET_LOG_FORMAT === 'json';
  const pino = require('pino') as typeof import('pino');
  return pino(
    { level: env.WHET_LOG_LEVEL ?? 'warn', base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
    // Synchronous, like pino.destination({ sync: true }): a line is out before the process exits.
    { write: (line: string) => write(redactText(json ? line : humanLine(line))) },
  );
}

let shared: pino.Logger | undefined;
/**
 * The process's logger, made on its first use: most commands never log, and pino is not loaded for them
 * (`whet status` starts faster). Methods are bound to the real logger when they are read.
 */
export const log: pino.Logger = new Proxy({} as pino.Logger, {
  get(_target, key) {
    shared ??= createLog();
    const v = Reflect.get(shared, key) as unknown;
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(shared) : v;
  },
});
