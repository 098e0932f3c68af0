// Leakage (docs/method.md: Never): "use eval tasks as examples inside the thing being evaluated". A
// task's prompt found in the skill under test, or in a judge spec's few-shots, is an error: the thing
// measured has seen the exam. Checks, on normalised text (case, width and whitespace folded):
//   - the whole prompt (≥ MIN_PROMPT_CHARS) inside a skill file or a few-shot → error
//     (inside an edge-case ruling → warning: rulings describe cases, but a pasted case is still a copy);
//   - a run of SHINGLE consecutive words shared with a skill file or a few-shot → warning (partial paste);
//   - a distinctive expected string (≥ MIN_EXPECTED_CHARS) of contains/equals inside a skill file or a
//     few-shot → warning (a skill may legitimately name a heading it asks for; a long answer is suspicious);
//   - a judge's whole expected list (2+ strings, quoted, in order) or a regex source with regex syntax,
//     pasted verbatim, whatever its length → warning `leak-expected` (a checklist of the judge's strings).
import { readFileSync } from 'node:fs';
import type { Finding, LintContext, Rule } from './types.js';
import { judgePath, taskPlace } from './types.js';
import { excerpt, findRun, haystack, normalise, sharedShingle, SHINGLE, type Haystack } from './text.js';

/** Shorter prompts ("hi", "summarise this") occur everywhere; finding them proves nothing. */
export const MIN_PROMPT_CHARS = 20;
/** Expected strings shorter than this are headings and keywords, not answers. */
export const MIN_EXPECTED_CHARS = 24;

interface Source {
  hay: Haystack;
  /** The file a finding points at, and the line offset of this text in it. */
  what: 'skill' | 'few-shot' | 'edge-case';
  label: string;
}

/** First line of a YAML value's text: a block scalar (`key: |`) starts on the line after its key. */
function contentLine(fileLines: string[], line: number): number {
  return /(^|\s)[|>][+-]?\d*\s*(#.*)?$/.test(fileLines[line - 1] ?? '') ? line + 1 : line;
}

function judgeSources(ctx: LintContext): Source[] {
  const out: Source[] = [];
  for (const { loaded, shown } of ctx.judgeSpecs) {
    let fileLines: string[] = [];
    try {
      fileLines = readFileSync(loaded.path, 'utf8').split(/\r?\n/);
    } catch {
      // Positions then fall back to the key's line.
    }
    loaded.spec.few_shots.forEach((f, k) => {
      for (const key of ['output', 'reasoning'] as const) {
        const hay = haystack(shown, f[key], contentLine(fileLines, loaded.lineOf(['few_shots', k, key])));
        out.push({ hay, what: 'few-shot', label: `few_shots[${k}].${key} of judge ${loaded.spec.name}` });
      }
    });
    loaded.spec.edge_cases.forEach((e, k) => {
      const hay = haystack(shown, `${e.case}\n${e.why}`, loaded.lineOf(['edge_cases', k]));
      out.push({ hay, what: 'edge-case', label: `edge_cases[${k}] of judge ${loaded.spec.name}` });
    });
  }
  return out;
}

export const leakageRule: Rule = (ctx) => {
  const out: Finding[] = [];
  const sources: Source[] = [...ctx.skill.map((hay) => ({ hay, what: 'skill' as const, label: hay.name })), ...judgeSources(ctx)];
  if (sources.length === 0) return out;
  for (const t of ctx.suite.tasks) {
    const place = taskPlace(ctx, t);
    const where = `task "${t.id}" (${place.file}:${place.line})`;
    const promptLong = normalise(t.prompt).length >= MIN_PROMPT_CHARS;
    for (const s of sources) {
      // A skill leak is fixed in the suite or the skill: point at the task. A few-shot leak is fixed in
      // the judge spec: point at the few-shot.
      const at = (line: number) => (s.what === 'skill' ? place : { file: s.hay.name, line });
      const whole = promptLong ? findRun(s.hay, t.prompt) : undefined;
      if (whole !== undefined) {
        const inSkill = s.what === 'skill';
        out.push({
          ...at(whole),
          severity: s.what === 'edge-case' ? 'warning' : 'error',
          rule: inSkill ? 'leak-prompt-in-skill' : s.what === 'few-shot' ? 'leak-prompt-in-judge' : 'leak-prompt-in-ruling',
          task: t.id,
          message: `the prompt of ${where} appears verbatim in ${s.label}${inSkill ? `:${whole}` : ''}`,
          hint: inSkill
            ? 'eval cases must stay unseen: remove the case from the skill, or replace the eval case with a fresh one of the same kind'
            : 'never reuse eval cases as few-shot examples: write a new example of the same kind for the judge',
        });
        continue;
      }
      const run = sharedShingle(s.hay, t.prompt);
      if (run !== undefined) {
        out.push({
          ...at(findRun(s.hay, run) ?? s.hay.lines[0] ?? 1),
          severity: 'warning',
          rule: 'leak-partial',
          task: t.id,
          message: `${SHINGLE} consecutive words of the prompt of ${where} appear in ${s.label}: ${excerpt(run)}`,
          hint: 'reword one side, or replace the eval case: a partly pasted case is partly seen',
        });
      }
    }
    out.push(...expectedLeaks(ctx, t.index, t.id, sources));
  }
  return out;
};

const QUOTE = `["'\u201c\u201d\u2018\u2019\`]`;
const SEPARATOR = String.raw`\s*(?:[,;/]|\band\b|\bor\b)?\s*(?:\band\b|\bor\b)?\s*`;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Regex syntax a prose sentence would not hold: a pattern with any of it, pasted, is the pattern. */
const REGEX_SYNTAX = /[\\[\](){}*+?|^$]/;

/** The list, every item quoted, in order, with only separators between: the judge's list pasted. */
function pastedList(items: readonly string[]): RegExp {
  return new RegExp(items.map((e) => `${QUOTE}${escapeRe(normalise(e))}${QUOTE}`).join(SEPARATOR), 'u');
}

/**
 * Verbatim copies of a judge's mechanics, whatever their length: a contains / not_contains judge's whole
 * list (2+ strings, each quoted, in order) or a regex judge's source (when it has regex syntax; a plain
 * word is just a word). Short single strings stay allowed: a skill may name the heading it asks for.
 */
function verbatimMechanics(ctx: LintContext, taskIndex: number, id: string, sources: Source[]): Finding[] {
  const out: Finding[] = [];
  const task = ctx.suite.tasks[taskIndex]!;
  task.judges.forEach((j, k) => {
    const jp = judgePath(ctx, taskIndex, k);
    const checks: { what: string; path: (string | number)[]; at: (h: Haystack) => number | undefined }[] = [];
    if ((j.type === 'contains' || j.type === 'not_contains') && j.expected.length >= 2) {
      const re = pastedList(j.expected);
      checks.push({ what: `the whole expected list of task "${id}" (${j.type}, ${j.expected.length} strings)`, path: [...jp, 'expected'], at: (h) => lineOfMatch(h, re) });
    }
    if (j.type === 'regex' && REGEX_SYNTAX.test(j.pattern)) {
      checks.push({ what: `the regex source /${j.pattern}/ of task "${id}"`, path: [...jp, 'pattern'], at: (h) => findRun(h, j.pattern) });
    }
    for (const c of checks) {
      for (const s of sources) {
        if (s.what === 'edge-case') continue;
        const line = c.at(s.hay);
        if (line === undefined) continue;
        out.push({
          file: s.what === 'skill' ? ctx.file : s.hay.name,
          line: s.what === 'skill' ? ctx.lineOf(c.path) : line,
          severity: 'warning',
          rule: 'leak-expected',
          task: id,
          message: `${c.what} appears verbatim in ${s.label}${s.what === 'skill' ? `:${line}` : ''}`,
          hint: 'the skill now checks for the judge instead of teaching the kind of request: write guidance in your own words, or replace the eval case',
        });
      }
    }
  });
  return out;
}

function lineOfMatch(h: Haystack, re: RegExp): number | undefined {
  const m = re.exec(h.text);
  if (!m) return undefined;
  let lo = 0;
  let hi = h.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (h.starts[mid]! <= m.index) lo = mid;
    else hi = mid - 1;
  }
  return h.lines[lo];
}

function expectedLeaks(ctx: LintContext, taskIndex: number, id: string, sources: Source[]): Finding[] {
  const out: Finding[] = verbatimMechanics(ctx, taskIndex, id, sources);
  const task = ctx.suite.tasks[taskIndex]!;
  task.judges.forEach((j, k) => {
    const strings = j.type === 'contains' ? j.expected : j.type === 'equals' ? [j.expected] : [];
    strings.forEach((e, n) => {
      if (normalise(e).length < MIN_EXPECTED_CHARS) return;
      for (const s of sources) {
        if (s.what === 'edge-case') continue;
        const line = findRun(s.hay, e);
        if (line === undefined) continue;
        const path = [...judgePath(ctx, taskIndex, k), 'expected', ...(j.type === 'contains' ? [n] : [])];
        out.push({
          file: s.what === 'skill' ? ctx.file : s.hay.name,
          line: s.what === 'skill' ? ctx.lineOf(path) : line,
          severity: 'warning',
          rule: 'leak-expected',
          task: id,
          message: `expected ${excerpt(e)} of task "${id}" appears in ${s.label}${s.what === 'skill' ? `:${line}` : ''}`,
          hint: 'a skill or judge that holds the answer makes the case measure copying; keep answers out of both',
        });
      }
    });
  });
  return out;
}
