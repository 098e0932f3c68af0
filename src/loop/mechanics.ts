// The last line of defence against proposals that copy the test: whatever a proposer wrote (a model's
// proposal most of all), an edit that writes a TRAIN judge's mechanics into the skill is left out and
// reported in candidates.json's `skipped`. Mechanics are: an expected string in quotes, a judge's whole
// list (2+ strings) on one line, a long expected string (≥ 24 characters, the lint's length rule), a
// regex source with regex syntax, a task id, and "the answer includes / leaves out / matches …"
// checklists. Domain words that guidance would use anyway (a "Breaking changes" heading named without
// quotes) are fine. Only train tasks are read: the proposer's world never contains a held-out judge.
import type { Task } from '../config/suite-schema.js';
import type { EditAction } from '../skill/edits.js';

export interface JudgeMechanics {
  lists: string[][];
  patterns: string[];
  ids: string[];
}

const LONG = 24;
const QUOTES: [string, string][] = [['"', '"'], ["'", "'"], ['\u201c', '\u201d'], ['`', '`']];
const REGEX_SYNTAX = /[\\[\](){}*+?|^$]/;
const CHECKLIST = /\bthe (?:answer|output|response) (?:includes|contains|leaves out|omits|matches|does not match)\b/i;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The mechanics of the train tasks' judges (held-out tasks are never passed in). */
export function trainMechanics(tasks: readonly Task[]): JudgeMechanics {
  return judgeMechanics(tasks.filter((t) => t.split === 'train'));
}

/**
 * Every listed task's judge mechanics. An external generator is a program with the file system in reach
 * (the suite included), so its candidates are held to every task's judges, held-out ones too: nothing a
 * held-out judge expects may reach a candidate, whoever wrote it.
 */
export function judgeMechanics(tasks: readonly Task[]): JudgeMechanics {
  const m: JudgeMechanics = { lists: [], patterns: [], ids: [] };
  for (const t of tasks) {
    m.ids.push(t.id);
    for (const j of t.judges) {
      if ((j.type === 'contains' || j.type === 'not_contains') && j.expected.length > 0) m.lists.push(j.expected.filter((e) => e.trim() !== ''));
      else if (j.type === 'equals') m.lists.push([j.expected]);
      else if (j.type === 'regex' && REGEX_SYNTAX.test(j.pattern)) m.patterns.push(j.pattern);
    }
  }
  return m;
}

/** The text an edit writes into the skill. */
export function writtenText(actions: readonly EditAction[]): string {
  const parts: string[] = [];
  for (const a of actions) {
    if (a.type === 'append_section' || a.type === 'insert_before_section') parts.push(a.heading, a.body);
    else if (a.type === 'replace_section') parts.push(a.body);
    else if (a.type === 'replace_text') parts.push(a.replace);
    else if (a.type === 'append_text') parts.push(a.text);
    else if (a.type === 'update_frontmatter') parts.push(JSON.stringify(a.set ?? {}));
  }
  return parts.join('\n');
}

/** What of the mechanics `text` copies (each once); [] when it copies none. */
export function copiedMechanics(text: string, m: JudgeMechanics): string[] {
  const found = new Set<string>();
  const lower = text.toLowerCase();
  const lines = lower.split('\n');
  for (const list of m.lists) {
    for (const s of list) {
      const e = s.toLowerCase();
      if (QUOTES.some(([a, b]) => lower.includes(`${a}${e}${b}`))) found.add(`the expected string ${JSON.stringify(s)} in quotes`);
      else if (s.trim().length >= LONG && lower.includes(e)) found.add(`the expected string ${JSON.stringify(s)}`);
    }
    if (list.length >= 2 && lines.some((l) => list.every((s) => l.includes(s.toLowerCase())))) found.add(`a judge's whole expected list ${JSON.stringify(list)}`);
  }
  for (const p of m.patterns) if (text.includes(p)) found.add(`the regex /${p}/`);
  for (const id of m.ids) if (new RegExp(`(^|[^\\w-])${escapeRe(id)}($|[^\\w-])`, 'i').test(text)) found.add(`the task id ${id}`);
  const c = CHECKLIST.exec(text);
  if (c) found.add(`a checklist ("${c[0]}")`);
  return [...found];
}
