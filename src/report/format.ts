// Number and text formatting every renderer shares, so "0.7000 (7/10) [0.3968, 0.8922]" reads the same in
// markdown, HTML and a JUnit property.
import type { Rate, ReportModel } from './model-schema.js';
import { spentWords } from '../evaluation/run-usage.js';
import { signed4 } from '../core/numbers.js';

// A rate that was not measured (nothing judged) is "—" in every format, never a number (issue 28).
export const f4 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(4));
export { signed4 as signed };
export const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);

/** "[0.3968, 0.8922]", or "—" when nothing was judged (Wilson's [0, 1] over no trial says nothing). */
export function ciText(r: { pass_rate_ci95: { low: number; high: number } | null }, sep = ', '): string {
  const c = r.pass_rate_ci95;
  return c ? `[${f4(c.low)}${sep}${f4(c.high)}]` : '—';
}

/** "0.7000 (7/10) [0.3968, 0.8922]" — the rate, its counts, its 95% Wilson interval; errors named apart. */
export function rateText(r: Rate | null | undefined): string {
  if (!r) return '—';
  const errs = r.errors ? `, ${r.errors} error${r.errors === 1 ? '' : 's'}` : '';
  return `${f4(r.pass_rate)} (${r.passed}/${r.judged}${errs})${r.pass_rate_ci95 ? ` [${f4(r.pass_rate_ci95.low)}, ${f4(r.pass_rate_ci95.high)}]` : ''}`;
}

/** p-values: 4 decimals, and "< 0.0001" rather than a misleading 0.0000. */
export const pValue = (p: number | null | undefined) => (p === null || p === undefined ? '—' : p < 0.0001 ? '< 0.0001' : p.toFixed(4));

/**
 * Text from artifacts (task reasons, prompts, titles) inside markdown: one line, and no character that
 * could end a table cell, open a code span or start raw HTML (CommonMark backslash escapes keep it readable).
 */
export function mdText(s: string): string {
  return s
    .replace(/\r?\n+/g, ' ')
    .replace(/[\\|`<>*[\]]/g, (c) => `\\${c}`)
    .trim();
}

/** A fenced block that its content cannot close: the fence is longer than any backtick run inside. */
export function mdFence(body: string, lang = ''): string {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${body.endsWith('\n') ? body : `${body}\n`}${fence}`;
}

/** An inline code span its content cannot close. */
export function mdCode(s: string): string {
  const flat = s.replace(/\r?\n+/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const tick = '`'.repeat(longest + 1);
  return longest ? `${tick} ${flat} ${tick}` : `${tick}${flat}${tick}`;
}

export function mdTable(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

export const roleName = { candidate: 'candidate', baseline: 'baseline', skill: 'skill' } as const;

/** "spent 18 call(s): engine 9 · judge 6 · generator 3; tokens 5553 in / 1944 out; $0.0123" (the run's one count). */
export function spentText(s: NonNullable<ReportModel['run']['spent']>): string {
  return `spent ${spentWords({ ...s, total: s.total_calls })}`;
}

/** The run-level claim in words, shared by the Markdown and HTML reports. */
export function runLevelText(r: { significance: number; max_iterations: number; per_candidate: number; enforced: boolean }): string {
  return `Run level: each of at most ${r.max_iterations} candidate(s) was tested at ${r.significance}/${r.max_iterations} = ${r.per_candidate}, so a run keeps an edit that does nothing at most ${r.significance} of the time (one-sided)${r.enforced ? '' : ' — on the mock engine the test is shown, not enforced: a demonstration of the pipeline, not of a skill'}.`;
}
