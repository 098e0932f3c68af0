// Exact-answer judge. Trimming is on by default because models almost always add a trailing
// newline; case matters by default because "exact" should mean exact unless the suite relaxes it.
// A failing reason shows where the two texts first differ, which is what an author needs to see.
import type { JudgeSpec } from '../config/suite-schema.js';
import type { JudgeResult } from './types.js';
import { quote } from './result.js';

type EqualsSpec = Extract<JudgeSpec, { type: 'equals' }>;

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

export function judgeEquals(spec: EqualsSpec, output: string): JudgeResult {
  const trim = spec.trim ?? true;
  const caseSensitive = spec.case_sensitive ?? true;
  const prep = (s: string): string => {
    const t = trim ? s.trim() : s;
    return caseSensitive ? t : t.toLowerCase();
  };
  const want = prep(spec.expected);
  const got = prep(output);
  if (want === got) {
    return { type: 'equals', passed: true, score: 1, reason: `output equals the expected text (${want.length} characters)` };
  }

  // Excerpts come from the compared forms (trimmed, maybe lower-cased) so offsets line up.
  const i = firstDifference(want, got);
  const from = Math.max(0, i - 10);
  const where = `character ${i + 1} (line ${lineOf(got, i)})`;
  let reason: string;
  if (i === got.length) {
    reason = `output ends early at ${where}; expected more: ${quote(want.slice(i), 40)}`;
  } else if (i === want.length) {
    reason = `output has ${got.length - i} extra characters from ${where}: ${quote(got.slice(i), 40)}`;
  } else {
    reason = `differs at ${where}: expected ${quote(want.slice(from, i + 30), 40)}, got ${quote(got.slice(from, i + 30), 40)}`;
  }
  return { type: 'equals', passed: false, score: 0, reason };
}
