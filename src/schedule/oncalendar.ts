// A five-field cron expression as a systemd OnCalendar= value (systemd.time(7)). The conversion is exact
// for what it accepts: `*` stays `*`, `*/n` becomes systemd's repetition `start/n`, and everything else
// (values, lists, ranges, stepped ranges, names) is expanded to its set of values and written back as
// values and `a..b` ranges. One thing cannot be converted: cron runs when EITHER a restricted day of month
// OR a restricted day of week matches, systemd only when both do — such an expression is refused with why.
import { UsageError } from '../core/errors.js';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const SYSTEMD_DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

interface Range {
  min: number;
  max: number;
  names?: string[];
  /** Where names start counting (JAN = 1, SUN = 0). */
  nameBase?: number;
}

const RANGES: Range[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, nameBase: 1 },
  { min: 0, max: 7, names: DAYS, nameBase: 0 },
];

function value(s: string, r: Range): number {
  const i = r.names?.indexOf(s.toUpperCase()) ?? -1;
  const n = i >= 0 ? i + (r.nameBase ?? 0) : Number(s);
  if (!Number.isInteger(n) || n < r.min || n > r.max) throw new UsageError(`"${s}" is out of range ${r.min}-${r.max}`);
  return n;
}

/** Every value a cron field selects. */
export function expandField(field: string, r: Range): number[] {
  const out = new Set<number>();
  for (const item of field.split(',')) {
    const [span = '', stepText] = item.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new UsageError(`bad step in "${item}"`);
    let lo = r.min;
    let hi = r.max;
    if (span !== '*') {
      const [a = '', b] = span.split('-');
      lo = value(a, r);
      hi = b === undefined ? (stepText === undefined ? lo : r.max) : value(b, r);
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return [...out].sort((x, y) => x - y);
}

/** Sorted values as `a,b..c` (runs of three or more consecutive values become ranges). */
function compact(values: number[], show: (v: number) => string): string {
  const parts: string[] = [];
  for (let i = 0; i < values.length; ) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${show(values[i]!)}..${show(values[j]!)}`);
    else for (let k = i; k <= j; k++) parts.push(show(values[k]!));
    i = j + 1;
  }
  return parts.join(',');
}

const pad = (v: number) => String(v).padStart(2, '0');

function component(field: string, r: Range): string {
  if (field === '*') return '*';
  const every = /^\*\/(\d+)$/.exec(field);
  if (every) return `${pad(r.min)}/${Number(every[1])}`;
  return compact(expandField(field, r), pad);
}

function weekdays(field: string): string {
  // Sunday is 0 and 7 in cron; systemd's week runs Mon..Sun, so Sunday sorts last.
  const days = [...new Set(expandField(field, RANGES[4]!).map((d) => (d === 0 ? 7 : d)))].sort((a, b) => a - b);
  return compact(days, (d) => SYSTEMD_DAYS[d - 1]!);
}

/** OnCalendar= for a five-field cron expression (as parseCron returns it). */
export function cronToOnCalendar(expr: string): string {
  const f = expr.split(' ');
  if (f.length !== 5) throw new UsageError(`cannot convert "${expr}" for systemd: it needs five fields`);
  const [minute, hour, dom, month, dow] = f as [string, string, string, string, string];
  if (dom !== '*' && dow !== '*') {
    throw new UsageError(
      `cannot convert "${expr}" for systemd: cron runs when the day of month (${dom}) OR the day of week (${dow}) matches, systemd only when both do; use --via cron, or restrict only one of the two`,
    );
  }
  try {
    const date = `*-${component(month, RANGES[3]!)}-${component(dom, RANGES[2]!)}`;
    const time = `${component(hour, RANGES[1]!)}:${component(minute, RANGES[0]!)}:00`;
    return `${dow === '*' ? '' : `${weekdays(dow)} `}${date} ${time}`;
  } catch (err) {
    throw new UsageError(`cannot convert "${expr}" for systemd: ${(err as Error).message}`);
  }
}
