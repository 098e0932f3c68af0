// Text handling for the mock engine, kept apart so the rules are easy to read and to test.
import { splitSkillMd } from '../skill/skill-md.js';

/** Common English words that carry no topic; docs/reference/engines.md "The mock engine" lists them all. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  ('the and for are but not you your with this that from have has had was were will would should could ' +
    'can its into about than then them they their there what when where which while who whom why how ' +
    'all any each few more most other some such only own same too very just also use used using does did ' +
    'doing done been being our out over under again once here both between after before above below off ' +
    'per via must may might shall let lets get got make makes made one two three').split(' '),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'’-]*/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9][a-z0-9_'-]*/g;

/**
 * Words the mock compares: lower-cased (NFKC) runs that start with a letter or digit and go on with
 * letters, digits, `_`, `'`, `’` or `-` (so "semver-compatible" is one word, not "semver"), trailing
 * apostrophes and hyphens dropped, of 3+ characters and not stop words; for Chinese, Japanese and Korean
 * text, which has no spaces, every pair of adjacent characters (a lone character stands for itself).
 */
export function tokenize(text: string): Set<string> {
  const out = new Set<string>();
  // ASCII text (most prompts) reads the same through simpler patterns: NFKC leaves it as it is, its only
  // letters and digits are [a-z0-9] once lower-cased, and it has no ’ and no CJK. The Unicode patterns
  // and normalisation were most of the mock's time per call.
  if (ASCII.test(text)) {
    for (const m of text.toLowerCase().matchAll(ASCII_WORD)) {
      const w = m[0].replace(/['-]+$/, '');
      if (w.length >= 3 && !STOPWORDS.has(w)) out.add(w);
    }
    return out;
  }
  const norm = text.normalize('NFKC').toLowerCase();
  for (const m of norm.matchAll(WORD)) {
    const w = m[0].replace(/['’-]+$/, '');
    if (CJK_CHAR.test(w)) continue;
    if (w.length >= 3 && !STOPWORDS.has(w)) out.add(w);
  }
  for (const m of norm.matchAll(CJK)) {
    const run = [...m[0]];
    if (run.length === 1) out.add(run[0]!);
    for (let i = 0; i + 1 < run.length; i++) out.add(run[i]! + run[i + 1]!);
  }
  return out;
}

/**
 * The lines of a SKILL.md the mock can quote: the body after any frontmatter, trimmed, without blank
 * lines, code-fence markers, table rules and horizontal rules. Everything else (headings, bullets,
 * table rows, code) is quoted verbatim.
 */
export function contentLines(skill: string): string[] {
  // The body as every command reads it (src/skill/skill-md.ts): the same frontmatter rule, the YAML unread.
  return quotableLines(skill.slice(splitSkillMd(skill).bodyStart));
}

/** contentLines of a body already split from its frontmatter. */
export function quotableLines(body: string): string[] {
  const out: string[] = [];
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || /^(```|~~~)/.test(line) || /^\|?[\s:|-]+\|?$/.test(line) || /^([-*_])(\s*\1){2,}$/.test(line)) continue;
    out.push(line);
  }
  return out;
}
