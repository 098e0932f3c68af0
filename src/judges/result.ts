// Small helpers every judge shares, so reasons look alike across judges: one line, quoted strings
// escaped and cut short, scores rounded the same way, and one shape for "could not judge".
import type { JudgeSpec } from '../config/suite-schema.js';
import type { Usage } from '../engines/types.js';
import type { JudgeResult } from './types.js';
import { round4 } from '../core/numbers.js';

/** Scores are rounded to 4 decimals so reports and caches never carry float noise (2/3 → 0.6667). */
export { round4 };

/** A judge that could not judge: never a pass, and flagged so it is not counted as a fail either. */
export function errorResult(type: JudgeSpec['type'], message: string, usage?: Usage): JudgeResult {
  const msg = oneLine(message);
  const result: JudgeResult = { type, passed: false, score: 0, reason: `error: ${msg}`, error: msg };
  if (usage && hasUsage(usage)) result.usage = usage;
  return result;
}

/** Reasons end up in one-line logs and table cells. */
export function oneLine(text: string, max = 500): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** JSON quoting escapes newlines and quotes, so a quoted user string cannot break the line. */
export function quote(text: string, max = 60): string {
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return JSON.stringify(cut);
}

/** Lists at most `max` quoted strings, then says how many more there were. */
export function quoteList(items: string[], max = 5): string {
  const shown = items.slice(0, max).map((s) => quote(s)).join(', ');
  return items.length > max ? `${shown} (+${items.length - max} more)` : shown;
}

/** The last few non-blank lines of a program's output: where test runners put their verdict. */
export function tailLines(text: string, n = 3, max = 400): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .slice(-n);
  const joined = lines.join(' | ');
  return joined.length > max ? `…${joined.slice(joined.length - max + 1)}` : joined;
}

export function addUsage(acc: Usage, more: Usage | undefined): Usage {
  if (!more) return acc;
  const out: Usage = { ...acc };
  for (const key of ['input_tokens', 'output_tokens', 'cost_usd'] as const) {
    const v = more[key];
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = (out[key] ?? 0) + v;
  }
  return out;
}

export function hasUsage(u: Usage): boolean {
  return u.input_tokens !== undefined || u.output_tokens !== undefined || u.cost_usd !== undefined;
}

export interface CombinedResult {
  passed: boolean;
  score: number;
  reason: string;
  error?: string;
}

/**
 * All judges of a task must pass. An errored judge makes the whole task an error (not a fail), because
 * the task was not fully judged. An empty list is an error rather than a vacuous pass.
 */
export function combineJudgeResults(results: JudgeResult[]): CombinedResult {
  if (results.length === 0) {
    return { passed: false, score: 0, reason: 'error: no judges ran', error: 'no judges ran' };
  }
  const errors = results.filter((r) => r.error !== undefined).map((r) => `${r.type}: ${r.error}`);
  const passed = errors.length === 0 && results.every((r) => r.passed);
  const score = round4(results.reduce((sum, r) => sum + (r.error !== undefined ? 0 : r.score), 0) / results.length);
  const reason = results.map((r) => `${r.type}: ${r.reason}`).join('; ');
  const combined: CombinedResult = { passed, score, reason };
  if (errors.length > 0) combined.error = errors.join('; ');
  return combined;
}
