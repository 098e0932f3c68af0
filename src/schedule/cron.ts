// Cron expressions for the nightly job: validated with croner (the same parser `whet schedule run` runs
// on), restricted to what crontab, systemd and GitHub Actions all understand — five fields of numbers,
// `*`, lists, ranges, steps and month/day names, or one of the @-nicknames — and shown as the next run
// times in local time and in UTC, so a reader sees when it fires before installing it.
import { Cron } from 'croner';
import { UsageError } from '../core/errors.js';

export const DEFAULT_AT = '0 3 * * *';

const NICKNAMES: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const FIELD_NAMES = ['minute', 'hour', 'day of month', 'month', 'day of week'];
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/**
 * The expression as five fields (nicknames expanded), or a UsageError naming the problem. With
 * `allowSeconds`, a six-field expression (seconds first) is accepted too: only the in-process runner of
 * `whet schedule run` can fire more often than once a minute.
 */
export function parseCron(expr: string, opts: { allowSeconds?: boolean } = {}): string {
  const trimmed = expr.trim().replace(/\s+/g, ' ');
  const nick = NICKNAMES[trimmed.toLowerCase()];
  if (trimmed.startsWith('@') && !nick) throw new UsageError(`--at "${expr}": unknown nickname; one of ${Object.keys(NICKNAMES).join(', ')}, or five fields like "0 3 * * *"`);
  const normal = nick ?? trimmed;
  const fields = normal.split(' ');
  const six = opts.allowSeconds && fields.length === 6;
  if (fields.length !== 5 && !six) {
    throw new UsageError(`--at "${expr}": a cron expression has five fields (minute hour day-of-month month day-of-week), got ${fields.length}`);
  }
  const named = six ? ['second', ...FIELD_NAMES] : FIELD_NAMES;
  fields.forEach((f, i) => {
    const name = named[i]!;
    // croner also reads L, W, # and ?; crontab and systemd do not, so a schedule that uses them could not be installed.
    if (!/^[0-9A-Za-z*,/-]+$/.test(f)) throw new UsageError(`--at "${expr}": the ${name} field "${f}" may only use digits, names, * , - /`);
    const words = f.match(/[A-Za-z]+/g) ?? [];
    const allowed = name === 'month' ? MONTHS : name === 'day of week' ? DAYS : [];
    const bad = words.find((w) => !allowed.includes(w.toUpperCase()));
    if (bad) throw new UsageError(`--at "${expr}": "${bad}" is not allowed in the ${name} field`);
  });
  let job: Cron;
  try {
    job = new Cron(normal, { paused: true, mode: six ? '6-part' : '5-part' });
  } catch (err) {
    throw new UsageError(`--at "${expr}": ${(err as Error).message}`);
  }
  if (!job.nextRun()) throw new UsageError(`--at "${expr}": this schedule never fires (no such date)`);
  return normal;
}

/** The next `n` times the expression fires after `from`, in the local zone or the one named. */
export function nextRuns(expr: string, n: number, from: Date, timezone?: string): Date[] {
  const six = expr.split(' ').length === 6;
  const job = new Cron(expr, { paused: true, mode: six ? '6-part' : '5-part', ...(timezone ? { timezone } : {}) });
  return job.nextRuns(n, from);
}

const pad = (x: number) => String(x).padStart(2, '0');
export const localTime = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
export const utcTime = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
export const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'local';

/** "2026-12-01 03:00 Europe/Berlin = 2026-12-01 02:00 UTC", one line per run. */
export function describeRuns(runs: Date[]): string[] {
  const zone = localZone();
  return runs.map((d) => `${localTime(d)} ${zone} = ${utcTime(d)}`);
}
