// Text handling for the floor planner: deterministic, dependency-free, and language-agnostic enough to
// give a floor on English and CJK case sets alike. Latin words are lower-cased and lightly stemmed
// (plural -s/-es/-ies, -ing, -ed); runs of Han/Kana/Hangul, which have no spaces, become character
// bigrams (a single character stays as it is), the usual trick for matching CJK without a dictionary.

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_SPLIT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** Words that carry no intent; kept short on purpose so the floor stays explainable. */
const STOPWORDS = new Set(
  (
    'a an the to of for in on at by with from into and or but so if is are was be been being am do does did ' +
    'i me my we us our you your it its this that these those there here he she they them their ' +
    'can could would should will shall may might must please pls just also some any all not no ' +
    'what which who how when where why hey hi ok okay thanks thank let lets get got'
  ).split(' '),
);

export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && /(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Content tokens of a text: stemmed Latin words without stopwords, CJK bigrams. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  const norm = text.normalize('NFKC').toLowerCase();
  for (const m of norm.matchAll(/[\p{L}\p{N}]+/gu)) {
    for (const seg of m[0].match(CJK_SPLIT) ?? []) {
      if (CJK.test(seg)) {
        if (seg.length === 1) out.push(seg);
        for (let i = 0; i + 1 < seg.length; i++) out.push(seg.slice(i, i + 2));
      } else if (!STOPWORDS.has(seg) && !/^\d+$/.test(seg)) out.push(stem(seg));
    }
  }
  return out;
}

/** Tokens of an identifier: `issue.create`, `createIssue`, `deploy-release` → issue create / create issue / deploy release. */
export function idTokens(id: string): string[] {
  return tokens(id.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[._:/-]+/g, ' '));
}

/** Index of the first whole-word occurrence of `phrase` (case- and width-insensitive; CJK needs no word boundary), or -1. */
export function phraseIndex(text: string, phrase: string): number {
  const t = text.normalize('NFKC').toLowerCase();
  const p = phrase.normalize('NFKC').toLowerCase().trim();
  if (p === '') return -1;
  if (CJK.test(p)) return t.indexOf(p);
  const esc = p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`(?<![\\p{L}\\p{N}_])${esc}(?![\\p{L}\\p{N}_])`, 'u').exec(t);
  return m ? m.index : -1;
}

/** Whitespace-separated words with surrounding punctuation trimmed (keeps `#`, `-`, `/`, `.` inside). */
export function rawWords(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.replace(/^[("'“‘\[]+|[)"'”’\],;:!?。，、！？]+$|\.$/gu, ''))
    .filter((w) => w.length > 0);
}
