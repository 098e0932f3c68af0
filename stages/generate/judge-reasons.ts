// Reading what the judges said about a failed task. A task's reason in baseline.json is every judge's
// reason joined by "; ", each prefixed with the judge type (src/judges/result.ts combineJudgeResults).
// Only the failing parts carry a lesson: strings a contains judge missed, strings a not_contains judge
// found, and a short note for the other judges. Wording this file relies on is the judges' own
// (src/judges/*.ts); a reason it does not recognise is ignored rather than guessed at.

export interface JudgeFeedback {
  /** Strings the answer had to contain and did not (contains). */
  required: string[];
  /** Strings the answer had to leave out and did not (not_contains). */
  forbidden: string[];
  /** What the other failing judges asked for, as a clause ("the answer matches /v\d+/"). */
  notes: string[];
}

const JUDGE_TYPES = ['contains', 'not_contains', 'regex', 'equals', 'json', 'script', 'pytest', 'llm-rubric', 'llm_rubric', 'tool_call'];
const PART_SPLIT = new RegExp(`; (?=(?:${JUDGE_TYPES.join('|')}): )`);
const NOTE_MAX = 160;

/** Splits a combined reason into [judge type, that judge's reason] pairs. */
export function judgeParts(reason: string): [string, string][] {
  const out: [string, string][] = [];
  for (const part of reason.split(PART_SPLIT)) {
    const m = /^([a-z_-]+): ([\s\S]*)$/.exec(part);
    if (m && JUDGE_TYPES.includes(m[1]!)) out.push([m[1]!, m[2]!]);
  }
  return out;
}

/**
 * The quoted strings of a judge's list (`"a", "b" (+2 more)`). A string the judge cut short (ending in
 * "…") is left out: half a required string is not the requirement.
 */
export function quotedStrings(list: string): string[] {
  const out: string[] = [];
  for (const m of list.matchAll(/"(?:[^"\\]|\\.)*"/g)) {
    try {
      const s = JSON.parse(m[0]) as string;
      if (s.length > 0 && !s.endsWith('…')) out.push(s);
    } catch {
      // Not a JSON string after all; nothing to learn from it.
    }
  }
  return out;
}

const clip = (s: string) => (s.length > NOTE_MAX ? `${s.slice(0, NOTE_MAX - 1)}…` : s);

/** What one failed task's judges asked for. */
export function readJudgeReason(reason: string): JudgeFeedback {
  const fb: JudgeFeedback = { required: [], forbidden: [], notes: [] };
  for (const [type, text] of judgeParts(reason)) {
    let m: RegExpExecArray | null;
    if (type === 'contains' && (m = /^missing \d+\/\d+: ([\s\S]*)$/.exec(text))) fb.required.push(...quotedStrings(m[1]!));
    else if (type === 'not_contains' && (m = /^found \d+\/\d+ forbidden: ([\s\S]*)$/.exec(text))) fb.forbidden.push(...quotedStrings(m[1]!));
    else if (type === 'regex' && (m = /^(\/[\s\S]*\/[imsu]*) does not match(?!, as required)/.exec(text))) fb.notes.push(`the answer matches ${clip(m[1]!)}`);
    else if (type === 'regex' && (m = /^(\/[\s\S]*\/[imsu]*) matched at offset \d+: [\s\S]*, but must not match/.exec(text))) fb.notes.push(`the answer does not match ${clip(m[1]!)}`);
    else if (type === 'equals' && /^(differs at|output ends early|output has \d+ extra)/.test(text)) fb.notes.push('the answer is exactly the text asked for, with nothing added');
    else if (type === 'json' && /^(not valid JSON|output is empty)/.test(text)) fb.notes.push('the answer is one valid JSON document and nothing else');
    else if (type === 'json' && (m = /violates the schema: ([\s\S]*)$/.exec(text))) fb.notes.push(`the answer is JSON that matches its schema (a check found: ${clip(m[1]!)})`);
    else if ((type === 'script' || type === 'pytest') && /^exit code/.test(text)) fb.notes.push(`the answer passes its automated check (it failed with: ${clip(text)})`);
    else if ((type === 'llm-rubric' || type === 'llm_rubric') && (m = /^(?:label FAIL|score [\d.]+ < [\d.]+[^:]*): ([\s\S]*)$/.exec(text))) fb.notes.push(`a reviewer's objection is answered: ${clip(m[1]!)}`);
  }
  return fb;
}

/** Case-insensitive de-duplication that keeps the first spelling seen. */
export function uniqueStrings(items: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of items) {
    const k = s.normalize('NFC').toLowerCase();
    if (!seen.has(k)) {
      seen.add(k);
      out.push(s);
    }
  }
  return out;
}
