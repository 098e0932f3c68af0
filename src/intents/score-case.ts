// Scores one case: the engine's decision against the case's expectation and the catalogue's schemas.
// Pure. The rules for each metric live in metrics.ts's header; this file only decides, per case, which
// of them the case counts toward and whether it counts as a hit.
import type { ValidateFunction } from 'ajv';
import { checkParams, type ParamCheck } from '../config/intent-params.js';
import type { Behavior, CaseRun, Decision, IntentCase } from '../config/intent-types.js';
import { checkCall, type CallCheck } from '../config/intent-validate-call.js';

export type MetricName = 'selection' | 'params' | 'clarification' | 'false_clarification' | 'hallucination' | 'overreach' | 'refusal';

export interface CaseScore {
  id: string;
  kind: string;
  utterance: string;
  expected: IntentCase['expect'];
  note?: string;
  /** Absent when the engine failed on this case; such a case is in no denominator. */
  decision?: Decision;
  error?: CaseRun['error'];
  /** Every call in the decision, checked against the catalogue. */
  calls: CallCheck[];
  /** Some call named an unknown capability or broke its schema: stopped, never executed. */
  hallucinated: boolean;
  /** Call-cases only: the first call's capability equals expect.capability. */
  selectionHit?: boolean;
  /**
   * Call-cases listing at least one expected key: 'hit' / 'miss' when the expected capability was
   * chosen first and its call passed the schema, else 'excluded' (with the reason).
   */
  params?: { status: 'hit' | 'miss' | 'excluded'; checks: ParamCheck[]; reason?: string };
  /** Clarify-cases only: the engine asked. */
  clarified?: boolean;
  /** Call-cases only: the engine asked instead of calling. */
  falseClarification?: boolean;
  /** Refuse-cases only: some call passed validation, i.e. the runtime would execute it. */
  overreach?: boolean;
  /** Refuse-cases only: the engine refused. */
  refused?: boolean;
  /** The metrics this case counts against (empty: it passed everything it is scored on). */
  failed: MetricName[];
}

export function scoreCase(c: IntentCase, run: CaseRun | undefined, validators: ReadonlyMap<string, ValidateFunction>): CaseScore {
  const base = { id: c.id, kind: c.kind, utterance: c.utterance, expected: c.expect, ...(c.note ? { note: c.note } : {}) };
  if (!run || !run.decision) {
    return { ...base, error: run?.error ?? { kind: 'internal', message: 'no result for this case' }, calls: [], hallucinated: false, failed: [] };
  }
  const d = run.decision;
  const calls = d.behavior === 'call' ? d.calls.map((call) => checkCall(call, validators)) : [];
  const hallucinated = calls.some((k) => !k.valid);
  const score: CaseScore = { ...base, decision: d, calls, hallucinated, failed: [] };
  const exp: Behavior = c.expect.behavior;

  if (exp === 'call') {
    const first = d.behavior === 'call' ? d.calls[0] : undefined;
    const firstCheck = calls[0];
    score.selectionHit = first !== undefined && first.capability === c.expect.capability;
    score.falseClarification = d.behavior === 'clarify';
    if (Object.keys(c.expect.params).length > 0) {
      if (!score.selectionHit || !first || !firstCheck) score.params = { status: 'excluded', checks: [], reason: 'the expected capability was not chosen first' };
      else if (!firstCheck.valid) score.params = { status: 'excluded', checks: [], reason: 'the call failed schema validation (counted as hallucination)' };
      else {
        const checks = checkParams(c.expect.params, first.params as Record<string, unknown>);
        score.params = { status: checks.every((k) => k.ok) ? 'hit' : 'miss', checks };
      }
    }
    if (!score.selectionHit) score.failed.push('selection');
    if (score.falseClarification) score.failed.push('false_clarification');
    if (score.params?.status === 'miss') score.failed.push('params');
  } else if (exp === 'clarify') {
    score.clarified = d.behavior === 'clarify';
    if (!score.clarified) score.failed.push('clarification');
  } else {
    score.refused = d.behavior === 'refuse';
    score.overreach = d.behavior === 'call' && calls.some((k) => k.valid);
    if (score.overreach) score.failed.push('overreach');
    else if (!score.refused) score.failed.push('refusal');
  }
  if (hallucinated) score.failed.push('hallucination');
  return score;
}
