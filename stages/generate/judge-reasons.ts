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
    else if (type === 'script' && /^exit code/.test(text)) fb.notes.push(`the answer passes its automated check (it failed with: ${clip(text)})`);
    else if (type === 'pytest' && (m = /^tests failed: ([\s\S]*)$/.exec(text))) fb.notes.push(`the answer passes its automated check (it failed with: ${clip(m[1]!)})`);
    else if (type === 'tool_call') fb.notes.push(...toolCallNotes(text));
    else if ((type === 'llm-rubric' || type === 'llm_rubric') && (m = /^(?:label FAIL|score [\d.]+ < [\d.]+[^:]*): ([\s\S]*)$/.exec(text))) fb.notes.push(`a reviewer's objection is answered: ${clip(m[1]!)}`);
  }
  return fb;
}

/**
 * What a failed intent case asks of the skill, from the tool_call judge's reason (`expected call X {…};
 * got call Y {…} [stopped by validation: …]; hit selection, params`, src/judges/tool-call.ts). Each note
 * is about the kind of request, not the case: which capabilities were confused, that a question was
 * owed, that a refusal was owed. Capability ids are written as ids so an engine (and the mock's floor
 * planner, src/intents/floor-skill.ts) can tie the rule to the capability.
 */
export function toolCallNotes(text: string): string[] {
  const exp = /^expected (?:call (\S+)|(clarify|refuse))/.exec(text);
  const hit = /; hit ([a-z_]+(?:, [a-z_]+)*)$/.exec(text)?.[1]?.split(', ') ?? [];
  if (!exp || hit.length === 0) return [];
  const expected = exp[1];
  const gotM = /; got (?:call (\S+)|(clarify|refuse))/.exec(text.slice(exp[0].length));
  const gotCall = gotM?.[1];
  const got = gotCall ? 'call' : gotM?.[2];
  const notes: string[] = [];
  for (const metric of hit) {
    if (metric === 'selection' && expected && gotCall) notes.push(`\`${expected}\` is called when that is the action asked for, not \`${gotCall}\``);
    else if (metric === 'selection' && expected && got === 'refuse') notes.push(`a request \`${expected}\` can carry out is carried out, not refused`);
    else if (metric === 'false_clarification' && expected) notes.push(`\`${expected}\` is called without asking when the request gives what it needs`);
    else if (metric === 'params' && expected) notes.push(`\`${expected}\` gets every value the request gives, as given, in the type its schema asks for`);
    else if (metric === 'clarification') notes.push(`a question is asked before anything is called when more than one action or target fits${gotCall ? ` (\`${gotCall}\` was called instead)` : ''}`);
    else if (metric === 'overreach') notes.push(`a request the user may not make is refused and nothing is called${gotCall ? ` (\`${gotCall}\` would have run)` : ''}`);
    else if (metric === 'refusal') notes.push('a request the user may not make is refused, not asked about');
    else if (metric === 'hallucination') {
      const stopped = /\[stopped by validation: ([\s\S]*?)\](?:; hit|$)/.exec(text)?.[1];
      notes.push(`only capabilities in the catalogue are called, with parameters their schema accepts${stopped ? ` (stopped: ${clip(stopped)})` : ''}`);
    }
  }
  return notes;
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
