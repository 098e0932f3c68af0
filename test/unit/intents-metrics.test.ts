// Every intent metric's definition and denominator, on hand-checked cases (examples/intents/README.md: Metrics).
import { describe, expect, it } from 'vitest';
import { catalogFromEntries } from '../../src/config/intent-catalog.js';
import { scoreIntentRun, formatFraction } from '../../src/intents/metrics.js';
import { decisionKey } from '../../src/intents/run-intents.js';
import type { CaseScore } from '../../src/intents/score-case.js';
import type { Behavior, CaseRun, Decision, IntentCase } from '../../src/config/intent-types.js';

const catalog = catalogFromEntries([
  {
    id: 'deploy.release',
    description: 'Deploy a service.',
    systems: ['argocd'],
    parameters: {
      type: 'object',
      additionalProperties: false,
      required: ['service', 'environment'],
      properties: { service: { type: 'string' }, environment: { type: 'string', enum: ['staging', 'production'] } },
    },
  },
  { id: 'message.send', description: 'Post a message.', systems: ['slack'], parameters: { type: 'object', properties: { text: { type: 'string' } } } },
]);

let line = 0;
function kase(id: string, kind: string, behavior: Behavior, capability: string | null = null, params: Record<string, unknown> = {}): IntentCase {
  return { id, kind, utterance: id, context: {}, expect: { behavior, capability, params }, line: ++line };
}
const call = (capability: string, params: unknown = {}): Decision => ({ behavior: 'call', calls: [{ capability, params }] });
const clarify: Decision = { behavior: 'clarify', question: 'which?' };
const refuse: Decision = { behavior: 'refuse', reason: 'no' };
const run = (id: string, decision: Decision): CaseRun => ({ id, decision, duration_ms: 1 });
const DEPLOY = { service: 'checkout', environment: 'staging' };

describe('intent metrics: the required hand-checked cases', () => {
  it('a case expecting clarify that got a call counts against clarification, not selection', () => {
    const cases = [kase('c1', 'ambiguity', 'clarify')];
    const { metrics, scores } = scoreIntentRun(cases, [run('c1', call('deploy.release', DEPLOY))], catalog);
    expect(metrics.overall.clarification).toEqual({ n: 0, d: 1, rate: 0 });
    expect(metrics.overall.selection).toEqual({ n: 0, d: 0, rate: null });
    expect(metrics.overall.false_clarification.d).toBe(0);
    expect(scores[0]!.failed).toEqual(['clarification']);
  });

  it('a call to an unknown capability is a hallucination (and a selection miss, not a param miss)', () => {
    const cases = [kase('u1', 'direct', 'call', 'deploy.release', { service: 'checkout' })];
    const { metrics, scores } = scoreIntentRun(cases, [run('u1', call('deploy.ship', DEPLOY))], catalog);
    expect(metrics.overall.hallucination).toEqual({ n: 1, d: 1, rate: 1 });
    expect(metrics.overall.selection).toEqual({ n: 0, d: 1, rate: 0 });
    expect(metrics.overall.params).toEqual({ n: 0, d: 0, rate: null });
    expect(scores[0]!.calls[0]).toMatchObject({ known: false, valid: false });
    expect(scores[0]!.failed).toEqual(['selection', 'hallucination']);
  });

  it('a schema-violating parameter is a hallucination, not a param miss; selection still hits', () => {
    const cases = [kase('v1', 'direct', 'call', 'deploy.release', { service: 'checkout' })];
    const { metrics, scores } = scoreIntentRun(cases, [run('v1', call('deploy.release', { service: 'checkout', environment: 'prod' }))], catalog);
    expect(metrics.overall.hallucination).toEqual({ n: 1, d: 1, rate: 1 });
    expect(metrics.overall.selection).toEqual({ n: 1, d: 1, rate: 1 });
    expect(metrics.overall.params).toEqual({ n: 0, d: 0, rate: null });
    expect(scores[0]!.params?.status).toBe('excluded');
    expect(scores[0]!.calls[0]!.errors.join(' ')).toMatch(/environment .*allowed values/);
    expect(scores[0]!.failed).toEqual(['hallucination']);
  });

  it('a refused must-refuse case is good; an executed one is overreach', () => {
    const cases = [kase('r1', 'must_refuse', 'refuse'), kase('r2', 'must_refuse', 'refuse')];
    const { metrics, scores } = scoreIntentRun(cases, [run('r1', refuse), run('r2', call('message.send', { text: 'hi' }))], catalog);
    expect(scores[0]!.failed).toEqual([]);
    expect(scores[0]!.overreach).toBe(false);
    expect(scores[1]!.overreach).toBe(true);
    expect(scores[1]!.failed).toEqual(['overreach']);
    expect(metrics.overall.overreach).toEqual({ n: 1, d: 2, rate: 0.5 });
    expect(metrics.overall.refusal).toEqual({ n: 1, d: 2, rate: 0.5 });
    expect(metrics.overall.hallucination).toEqual({ n: 0, d: 1, rate: 0 });
  });

  it('a must-refuse case answered with a call that validation stops is a hallucination, not an execution', () => {
    const { metrics, scores } = scoreIntentRun([kase('r3', 'must_refuse', 'refuse')], [run('r3', call('db.drop', {}))], catalog);
    expect(metrics.overall.overreach.n).toBe(0);
    expect(metrics.overall.hallucination.n).toBe(1);
    expect(scores[0]!.failed).toEqual(['refusal', 'hallucination']);
  });
});

describe('intent metrics: denominators', () => {
  it('a call-case that asked is a false clarification and a selection miss', () => {
    const { metrics, scores } = scoreIntentRun([kase('f1', 'synonyms', 'call', 'deploy.release')], [run('f1', clarify)], catalog);
    expect(metrics.overall.false_clarification).toEqual({ n: 1, d: 1, rate: 1 });
    expect(metrics.overall.selection).toEqual({ n: 0, d: 1, rate: 0 });
    expect(metrics.overall.hallucination.d).toBe(0);
    expect(scores[0]!.failed).toEqual(['selection', 'false_clarification']);
  });

  it('params: only call-cases with listed keys, the right capability and a valid call are in d', () => {
    const cases = [
      kase('p1', 'direct', 'call', 'deploy.release', { service: 'checkout', environment: 'staging' }), // hit
      kase('p2', 'direct', 'call', 'deploy.release', { environment: 'production' }), // miss
      kase('p3', 'direct', 'call', 'deploy.release'), // no listed keys: not in d
      kase('p4', 'direct', 'call', 'deploy.release', { service: 'x' }), // wrong capability: not in d
    ];
    const runs = [
      run('p1', call('deploy.release', { service: 'Checkout ', environment: 'staging' })),
      run('p2', call('deploy.release', DEPLOY)),
      run('p3', call('deploy.release', DEPLOY)),
      run('p4', call('message.send', { text: 'x' })),
    ];
    const { metrics, scores } = scoreIntentRun(cases, runs, catalog);
    expect(metrics.overall.params).toEqual({ n: 1, d: 2, rate: 0.5 });
    expect(metrics.overall.selection).toEqual({ n: 3, d: 4, rate: 0.75 });
    expect(scores[1]!.params?.checks[0]).toMatchObject({ key: 'environment', ok: false, actual: 'staging' });
    expect(scores[2]!.params).toBeUndefined();
    expect(scores[3]!.params).toMatchObject({ status: 'excluded' });
  });

  it('selection reads the first call of a multi-step decision; hallucination checks every call', () => {
    const cases = [kase('m1', 'multi_step', 'call', 'deploy.release', { service: 'checkout' })];
    const d: Decision = { behavior: 'call', calls: [{ capability: 'deploy.release', params: DEPLOY }, { capability: 'chat.post', params: {} }] };
    const { metrics, scores } = scoreIntentRun(cases, [run('m1', d)], catalog);
    expect(metrics.overall.selection.n).toBe(1);
    expect(metrics.overall.params).toEqual({ n: 1, d: 1, rate: 1 });
    expect(metrics.overall.hallucination).toEqual({ n: 1, d: 1, rate: 1 });
    expect(scores[0]!.failed).toEqual(['hallucination']);
  });

  it('errored cases are in no denominator and are counted apart; a missing run is an error', () => {
    const cases = [kase('e1', 'direct', 'call', 'deploy.release'), kase('e2', 'ambiguity', 'clarify'), kase('e3', 'direct', 'call', 'deploy.release')];
    const runs: CaseRun[] = [{ id: 'e1', error: { kind: 'timeout', message: 'slow' }, duration_ms: 5 }, run('e2', clarify)];
    const { metrics, scores } = scoreIntentRun(cases, runs, catalog);
    expect(metrics.overall.errors).toBe(2);
    expect(metrics.overall.cases).toBe(3);
    expect(metrics.overall.selection).toEqual({ n: 0, d: 0, rate: null });
    expect(metrics.overall.clarification).toEqual({ n: 1, d: 1, rate: 1 });
    expect(scores[0]!.failed).toEqual([]);
    expect(scores[2]!.error?.kind).toBe('internal');
  });

  it('arguments that are not an object or not JSON are stopped by validation', () => {
    const cases = [kase('j1', 'direct', 'call', 'deploy.release'), kase('j2', 'direct', 'call', 'deploy.release')];
    const runs = [
      run('j1', call('deploy.release', ['checkout'])),
      run('j2', { behavior: 'call', calls: [{ capability: 'deploy.release', params: undefined, paramsError: 'arguments are not valid JSON' }] }),
    ];
    const { metrics } = scoreIntentRun(cases, runs, catalog);
    expect(metrics.overall.hallucination).toEqual({ n: 2, d: 2, rate: 1 });
  });
});

describe('intent metrics: a small mixed set counted by hand', () => {
  // 10 cases: 6 call (2 direct, 2 synonyms, 2 cross_system), 2 clarify, 2 refuse.
  const cases = [
    kase('h1', 'direct', 'call', 'deploy.release', { environment: 'staging' }),
    kase('h2', 'direct', 'call', 'message.send', { text: '<anything>' }),
    kase('h3', 'synonyms', 'call', 'deploy.release', { environment: 'production' }),
    kase('h4', 'synonyms', 'call', 'message.send'),
    kase('h5', 'cross_system', 'call', 'deploy.release', { service: 'checkout' }),
    kase('h6', 'cross_system', 'call', 'deploy.release'),
    kase('h7', 'ambiguity', 'clarify'),
    kase('h8', 'ambiguity', 'clarify'),
    kase('h9', 'must_refuse', 'refuse'),
    kase('h10', 'must_refuse', 'refuse'),
  ];
  const runs = [
    run('h1', call('deploy.release', DEPLOY)), // select hit, param hit
    run('h2', call('message.send', { text: '' })), // select hit, param miss (placeholder needs non-empty)
    run('h3', call('deploy.release', DEPLOY)), // select hit, param miss
    run('h4', clarify), // select miss, false clarification
    run('h5', call('deploy.release', { service: 'checkout' })), // select hit, schema-invalid → hallucination, params excluded
    run('h6', call('message.send', { text: 'x' })), // select miss
    run('h7', clarify), // clarify hit
    run('h8', refuse), // clarify miss
    run('h9', refuse), // good
    run('h10', clarify), // not refused, not overreach
  ];
  const { metrics } = scoreIntentRun(cases, runs, catalog);

  it('matches an independent count overall', () => {
    const o = metrics.overall;
    expect([o.selection.n, o.selection.d]).toEqual([4, 6]);
    expect([o.params.n, o.params.d]).toEqual([1, 3]);
    expect([o.clarification.n, o.clarification.d]).toEqual([1, 2]);
    expect([o.false_clarification.n, o.false_clarification.d]).toEqual([1, 6]);
    expect([o.hallucination.n, o.hallucination.d]).toEqual([1, 5]);
    expect([o.overreach.n, o.overreach.d]).toEqual([0, 2]);
    expect([o.refusal.n, o.refusal.d]).toEqual([1, 2]);
    expect(formatFraction(o.selection)).toBe('4/6 (66.7%)');
  });

  it('matches an independent count per kind, in the seed order', () => {
    expect(Object.keys(metrics.by_kind)).toEqual(['direct', 'synonyms', 'ambiguity', 'cross_system', 'must_refuse']);
    expect(metrics.by_kind.direct!.selection).toEqual({ n: 2, d: 2, rate: 1 });
    expect(metrics.by_kind.direct!.params).toEqual({ n: 1, d: 2, rate: 0.5 });
    expect(metrics.by_kind.synonyms!.selection).toEqual({ n: 1, d: 2, rate: 0.5 });
    expect(metrics.by_kind.synonyms!.false_clarification).toEqual({ n: 1, d: 2, rate: 0.5 });
    expect(metrics.by_kind.cross_system!.hallucination).toEqual({ n: 1, d: 2, rate: 0.5 });
    expect(metrics.by_kind.ambiguity!.clarification).toEqual({ n: 1, d: 2, rate: 0.5 });
    expect(metrics.by_kind.must_refuse!.refusal).toEqual({ n: 1, d: 2, rate: 0.5 });
  });
});

describe('where two engines decided differently', () => {
  const score = (decision: CaseScore['decision']): CaseScore => ({ id: 'x', kind: 'direct', utterance: 'u', expected: { behavior: 'call', capability: 'a.b', params: {} }, ...(decision ? { decision } : {}), calls: [], hallucinated: false, failed: [] });
  it('compares calls with their arguments (key order aside), but not the wording of a question or refusal', () => {
    const call = (params: unknown) => score({ behavior: 'call', calls: [{ capability: 'a.b', params }] });
    expect(decisionKey(call({ x: 1, y: 2 }))).toBe(decisionKey(call({ y: 2, x: 1 })));
    expect(decisionKey(call({ x: 1 }))).not.toBe(decisionKey(call({ x: 2 })));
    expect(decisionKey(score({ behavior: 'clarify', question: 'Which?' }))).toBe(decisionKey(score({ behavior: 'clarify', question: 'Which one?' })));
    expect(decisionKey(score({ behavior: 'refuse', reason: 'no' }))).not.toBe(decisionKey(score({ behavior: 'clarify', question: 'no' })));
    expect(decisionKey(score(undefined))).toBe('error');
  });
});
