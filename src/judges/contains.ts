// Substring judges. `contains` keeps the seed's semantics (every expected string must appear,
// case-insensitive unless told otherwise, score = fraction found) so seed suites score the same here.
// Both sides are NFC-normalised first: the same visible text typed on two systems can differ in
// composed/decomposed accents, and a substring check should not fail on that.
import type { JudgeResult } from './types.js';
import { quoteList, round4 } from './result.js';

interface SubstringSpec {
  expected: string[];
  case_sensitive?: boolean | undefined;
}

function normaliser(caseSensitive: boolean): (s: string) => string {
  return caseSensitive ? (s) => s.normalize('NFC') : (s) => s.normalize('NFC').toLowerCase();
}

function partition(spec: SubstringSpec, output: string): { present: string[]; absent: string[] } {
  const norm = normaliser(spec.case_sensitive ?? false);
  const haystack = norm(output);
  const present: string[] = [];
  const absent: string[] = [];
  for (const needle of spec.expected) (haystack.includes(norm(needle)) ? present : absent).push(needle);
  return { present, absent };
}

export function judgeContains(spec: SubstringSpec & { type: 'contains' }, output: string): JudgeResult {
  const total = spec.expected.length;
  const { present, absent } = partition(spec, output);
  const passed = absent.length === 0;
  return {
    type: 'contains',
    passed,
    score: total === 0 ? 1 : round4(present.length / total),
    reason: passed
      ? `found all ${total} expected string${total === 1 ? '' : 's'}`
      : `missing ${absent.length}/${total}: ${quoteList(absent)}`,
  };
}

export function judgeNotContains(spec: SubstringSpec & { type: 'not_contains' }, output: string): JudgeResult {
  const total = spec.expected.length;
  const { present, absent } = partition(spec, output);
  const passed = present.length === 0;
  return {
    type: 'not_contains',
    passed,
    score: total === 0 ? 1 : round4(absent.length / total),
    reason: passed
      ? `none of ${total} forbidden string${total === 1 ? '' : 's'} found`
      : `found ${present.length}/${total} forbidden: ${quoteList(present)}`,
  };
}
