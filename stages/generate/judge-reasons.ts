// Reading what the judges said about a failed task. A task's reason in baseline.json is every judge's
// reason joined by "; ", each prefixed with the judge type (src/judges/result.ts combineJudgeResults).
// What the proposer takes from it is the KIND of each failing check — content was missing, something
// had to be left out, a format, an exact text, valid JSON, an automated check, a reviewer's objection —
// never its mechanics: the expected strings, the regex source and the error text stay here, so no
// proposal can turn into a checklist of one judge's strings (the test is not the lesson). Tool-call
// notes are the exception that proves the rule: they name catalogue capabilities (the vocabulary the
// skill itself uses), never the case. Wording this file relies on is the judges' own (src/judges/*.ts);
// a reason it does not recognise is ignored rather than guessed at.

/** What kind of thing a failing check asked for, in the order rules are written. */
export const FAILURE_KINDS = ['cover', 'omit', 'format', 'exact', 'json', 'json_fields', 'check', 'review'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export interface JudgeFeedback {
  /** The kinds of the failing checks (each once). */
  kinds: FailureKind[];
  /** Tool-call notes (intent cases): which capability fits which kind of request. */
  notes: string[];
}

const JUDGE_TYPES = ['contains', 'not_contains', 'regex', 'equals', 'json', 'script', 'pytest', 'llm-rubric', 'llm_rubric', 'tool_call'];
const PART_SPLIT = new RegExp(`; (?=(?:${JUDGE_TYPES.join('|')}): )`);
const NOTE_MAX = 160;
const clip = (s: string) => (s.length > NOTE_MAX ? `${s.slice(0, NOTE_MAX - 1)}…` : s);

/** Splits a combined reason into [judge type, that judge's reason] pairs. */
export function judgeParts(reason: string): [string, string][] {
  const out: [string, string][] = [];
  for (const part of reason.split(PART_SPLIT)) {
    const m = /^([a-z_-]+): ([\s\S]*)$/.exec(part);
    if (m && JUDGE_TYPES.includes(m[1]!)) out.push([m[1]!, m[2]!]);
  }
  return out;
}

/** What one failed task's judges asked for: the kinds of their failing checks, and tool-call notes. */
export function readJudgeReason(reason: string): JudgeFeedback {
  const kinds = new Set<FailureKind>();
  const notes: string[] = [];
  for (const [type, text] of judgeParts(reason)) {
    if (type === 'contains' && /^missing \d+\/\d+: /.test(text)) kinds.add('cover');
    else if (type === 'not_contains' && /^found \d+\/\d+ forbidden: /.test(text)) kinds.add('omit');
    else if (type === 'regex' && (/^\/[\s\S]*\/[imsu]* does not match(?!, as required)/.test(text) || /^\/[\s\S]*\/[imsu]* matched at offset \d+: [\s\S]*, but must not match/.test(text))) kinds.add('format');
    else if (type === 'equals' && /^(differs at|output ends early|output has \d+ extra)/.test(text)) kinds.add('exact');
    else if (type === 'json' && /^(not valid JSON|output is empty)/.test(text)) kinds.add('json');
    else if (type === 'json' && /violates the schema: /.test(text)) kinds.add('json_fields');
    else if (type === 'script' && /^exit code/.test(text)) kinds.add('check');
    else if (type === 'pytest' && /^tests failed: /.test(text)) kinds.add('check');
    else if (type === 'tool_call') notes.push(...toolCallNotes(text));
    else if ((type === 'llm-rubric' || type === 'llm_rubric') && /^(?:label FAIL|score [\d.]+ < [\d.]+[^:]*): /.test(text)) kinds.add('review');
  }
  return { kinds: FAILURE_KINDS.filter((k) => kinds.has(k)), notes };
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
