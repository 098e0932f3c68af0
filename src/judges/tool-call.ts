// The `tool_call` judge: the attempt's output is a decision (JSON, see src/intents/decision.ts) and it is
// scored against the suite's intent case with the intents harness's own scoring (score-case.ts), so the
// catalogue's Ajv validators decide whether a call would run: a call to an unknown capability, or with
// arguments its schema rejects, is a hallucination and is never "executed". Pass = the case is fully
// right (it counts against no metric). The reason says what was expected, what happened and which
// metrics it hit, so a failing task explains itself in results/*.jsonl.
import type { SuiteIntents } from '../config/suite-schema.js';
import { describeDecision, parseDecision } from '../intents/decision.js';
import { scoreCase, type CaseScore } from '../intents/score-case.js';
import type { Decision, PlannedCall } from '../config/intent-types.js';
import { errorResult } from './result.js';
import type { JudgeResult } from './types.js';

/** Reads a decision output; `paramsError` survives the round trip so unparseable arguments stay a hallucination. */
export function readDecisionOutput(output: string): { decision: Decision } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    return { error: `the output is not a JSON decision: ${output.trim().replace(/\s+/g, ' ').slice(0, 160) || '(empty)'}` };
  }
  const parsed = parseDecision(value, 'json');
  if (!parsed.ok) return { error: parsed.message };
  const d = parsed.decision;
  const raw = (value as { calls?: unknown }).calls;
  if (d.behavior === 'call' && Array.isArray(raw)) {
    d.calls = d.calls.map((c: PlannedCall, i) => {
      const e = (raw[i] as { paramsError?: unknown } | undefined)?.paramsError;
      return typeof e === 'string' ? { ...c, paramsError: e } : c;
    });
  }
  const via = (value as { via?: unknown }).via;
  if (via === 'tool' || via === 'text' || via === 'rules' || via === 'json') d.via = via;
  return { decision: d };
}

/** Scores one output against case `caseId`; an error when the case or the decision cannot be read. */
export function scoreToolCallOutput(output: string, caseId: string, intents: SuiteIntents | undefined): { score: CaseScore } | { error: string } {
  if (!intents) return { error: 'tool_call needs the suite\'s "intents:" (cases and catalogue)' };
  const c = intents.cases.get(caseId);
  if (!c) return { error: `no intent case "${caseId}" in the suite` };
  const read = readDecisionOutput(output);
  if ('error' in read) return read;
  return { score: scoreCase(c, { id: c.id, decision: read.decision, duration_ms: 0 }, intents.catalog.validators) };
}

function describeExpected(e: CaseScore['expected']): string {
  if (e.behavior !== 'call') return e.behavior;
  const params = Object.keys(e.params).length > 0 ? ` ${JSON.stringify(e.params)}` : '';
  return `call ${e.capability}${params}`;
}

export function judgeToolCall(spec: { case_id: string }, output: string, intents: SuiteIntents | undefined): JudgeResult {
  const r = scoreToolCallOutput(output, spec.case_id, intents);
  if ('error' in r) return errorResult('tool_call', r.error);
  const s = r.score;
  const got = s.decision ? describeDecision(s.decision, 160) : '(no decision)';
  const stopped = s.calls.filter((k) => !k.valid).map((k) => `${k.capability}: ${k.errors.join(', ')}`);
  const passed = s.failed.length === 0;
  const reason = passed
    ? `right (${describeExpected(s.expected)}); got ${got}`
    : `expected ${describeExpected(s.expected)}; got ${got}${stopped.length ? ` [stopped by validation: ${stopped.join('; ')}]` : ''}; hit ${s.failed.join(', ')}`;
  return { type: 'tool_call', passed, score: passed ? 1 : 0, reason };
}
