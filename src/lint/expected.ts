// Expectations a task can never meet, or that check nothing. Only what can be proved cheaply is reported
// as an error; everything reported follows from the judges' own semantics (contains.ts, equals.ts,
// regex.ts), never from a guess about the model:
//   - contains C with not_contains N where every text containing C contains N (N inside C) → error;
//   - equals X with not_contains N inside X, or with contains C not inside X → error;
//   - two equals judges on one task that want different texts → error;
//   - a whitespace-only not_contains string (fails nearly every output) → error; a whitespace-only
//     contains string (passes nearly every output) → warning; contains padded with spaces → warning;
//   - a regex with no anchors or lookarounds that matches "" matches every output: as a plain regex it
//     always passes (warning), negated it never passes (error).
// Not detected: regexes that cannot match for subtler reasons (an empty class inside an alternation,
// `$` before required text); invalid regexes are refused by the suite loader before lint runs.
import type { JudgeSpec } from '../config/suite-schema.js';
import type { Finding, Rule } from './types.js';
import { judgePath } from './types.js';

type Sub = { text: string; sensitive: boolean; path: (string | number)[] };

/** Quoted as written: whitespace is often the very problem reported, so it is kept visible. */
const excerpt = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 59)}…` : s);

const fold = (s: string, sensitive: boolean) => (sensitive ? s.normalize('NFC') : s.normalize('NFC').toLowerCase());
const caseless = (s: string) => s.toLowerCase() === s.toUpperCase();

/** Does every output that contains `c` (under its case rule) contain `n` (under its rule)? */
function forces(c: Sub, n: Sub): boolean {
  if (!n.sensitive) return fold(c.text, false).includes(fold(n.text, false));
  if (c.sensitive) return fold(c.text, true).includes(fold(n.text, true));
  return caseless(n.text) && fold(c.text, false).includes(fold(n.text, true));
}

/** Regex syntax that makes matching depend on position: with none of it, matching "" means matching anything. */
const POSITIONAL = /[\^$]|\\[bB]|\(\?<?[=!]/;

export function matchesEverything(pattern: string, flags = ''): boolean {
  if (POSITIONAL.test(pattern)) return false;
  try {
    return new RegExp(pattern, flags).test('');
  } catch {
    return false;
  }
}

export const expectedRule: Rule = (ctx) => {
  const out: Finding[] = [];
  for (const t of ctx.suite.tasks) {
    const add = (path: (string | number)[], severity: Finding['severity'], rule: string, message: string, hint: string) =>
      out.push({ file: ctx.file, line: ctx.lineOf(path), severity, rule, task: t.id, message: `task "${t.id}": ${message}`, hint });
    const contains: Sub[] = [];
    const notContains: Sub[] = [];
    const equals: (Sub & { trim: boolean })[] = [];
    t.judges.forEach((j: JudgeSpec, k) => {
      const jp = judgePath(ctx, t.index, k);
      if (j.type === 'contains' || j.type === 'not_contains') {
        j.expected.forEach((e, n) => {
          const sub = { text: e, sensitive: j.case_sensitive ?? false, path: [...jp, 'expected', n] };
          (j.type === 'contains' ? contains : notContains).push(sub);
          if (e.trim() === '') {
            if (j.type === 'contains') add(sub.path, 'warning', 'expected-blank', `contains ${excerpt(e)} is only whitespace: nearly every output passes it`, 'remove it, or write the text the output must hold');
            else add(sub.path, 'error', 'expected-blank', `not_contains ${excerpt(e)} is only whitespace: nearly every output fails it`, 'remove it, or write the text the output must not hold');
          } else if (j.type === 'contains' && e !== e.trim()) {
            add(sub.path, 'warning', 'expected-padded', `contains ${excerpt(e)} has surrounding whitespace: it fails when the text starts or ends a line`, 'trim it; use a regex judge with \\b for whole words');
          }
        });
      } else if (j.type === 'equals') {
        equals.push({ text: j.expected, sensitive: j.case_sensitive ?? true, trim: j.trim ?? true, path: [...jp, 'expected'] });
      } else if (j.type === 'regex' && matchesEverything(j.pattern, j.flags)) {
        if (j.negate) add([...jp, 'pattern'], 'error', 'regex-vacuous', `negated regex /${j.pattern}/ matches every output, so it can never pass`, 'anchor it or make it require at least one character');
        else add([...jp, 'pattern'], 'warning', 'regex-vacuous', `regex /${j.pattern}/ matches every output (it matches the empty string), so it checks nothing`, 'make it require the text that matters');
      }
    });
    for (const c of contains) {
      for (const n of notContains) {
        if (c.text.trim() !== '' && n.text.trim() !== '' && forces(c, n)) {
          add(c.path, 'error', 'expected-conflict', `contains ${excerpt(c.text)} but not_contains ${excerpt(n.text)}: any output with the first has the second, so the task can never pass`, 'drop one of the two, or narrow the not_contains string');
        }
      }
    }
    for (const e of equals) {
      // With trim on, the output may carry whitespace around the text; a string with no whitespace at its
      // ends can only occur inside the text itself.
      const asContained: Sub = { text: e.trim ? e.text.trim() : e.text, sensitive: e.sensitive, path: e.path };
      for (const n of notContains) {
        if (n.text.trim() !== '' && forces(asContained, n)) {
          add(e.path, 'error', 'expected-conflict', `equals ${excerpt(e.text)} contains the forbidden ${excerpt(n.text)}: the task can never pass`, 'drop the not_contains string or fix the expected text');
        }
      }
      for (const c of contains) {
        if (c.text.trim() === '' || c.text !== c.text.trim() || (c.sensitive && !e.sensitive)) continue;
        const sensitive = c.sensitive && e.sensitive;
        if (!fold(asContained.text, sensitive).includes(fold(c.text, sensitive))) {
          add(c.path, 'error', 'expected-conflict', `contains ${excerpt(c.text)} but equals ${excerpt(e.text)}, which does not contain it: the task can never pass`, 'make the two judges agree');
        }
      }
    }
    for (let a = 0; a < equals.length; a++) {
      for (let b = a + 1; b < equals.length; b++) {
        const x = equals[a]!;
        const y = equals[b]!;
        const insensitive = !x.sensitive || !y.sensitive;
        const norm = (s: string, trim: boolean) => fold(trim ? s.trim() : s, !insensitive);
        if (norm(x.text, x.trim || y.trim) !== norm(y.text, x.trim || y.trim)) {
          add(y.path, 'error', 'expected-conflict', `two equals judges want different texts (${excerpt(x.text)} and ${excerpt(y.text)}): the task can never pass`, 'keep one equals judge');
        }
      }
    }
  }
  return out;
};
