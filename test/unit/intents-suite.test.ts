// Intent suites in the task-suite format, the mock's skill rule, the tool-engine decision path, and the
// gate's intent checks (issue 5 §6).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSuite } from '../../src/config/suite.js';
import { catalogEntries } from '../../src/config/intent-catalog.js';
import { catalogWithSkill, skillKeywords } from '../../src/intents/floor-skill.js';
import { decideIntent } from '../../src/evaluation/intent-decide.js';
import { judgeToolCall } from '../../src/judges/tool-call.js';
import type { Engine, EngineRequest } from '../../src/engines/types.js';
import { decide } from '../../stages/gate/decide.js';
import { THRESHOLD_DEFAULTS } from '../../src/config/thresholds.js';
import type { PipelineEvaluation } from '../../src/artifacts/evaluation.js';
import { copyExample, repoRoot, tempDir, write } from '../support/cli.js';
import { errorOf } from '../support/errors.js';

describe('intent suites', () => {
  const suite = loadSuite(join(repoRoot, 'examples/intents/suite.yaml'));

  it('turns every shipped case into a tool_call task and carries the cases and catalogue', () => {
    expect(suite.tasks).toHaveLength(30);
    const t = suite.tasks.find((x) => x.id === 'e-007')!;
    expect(t).toMatchObject({ category: 'synonyms', prompt: 'can u land 418 on payments-api, squash it', negative: false, judges: [{ type: 'tool_call', case_id: 'e-007' }] });
    expect(suite.tasks.find((x) => x.id === 'e-028')).toMatchObject({ category: 'must_refuse', negative: true });
    expect(suite.intents!.cases.size).toBe(30);
    expect(suite.intents!.catalog.capabilities).toHaveLength(12);
  });

  it('hashes the cases and the catalogue into the suite', () => {
    const dir = tempDir();
    copyExample('intents', join(dir, 'ex'));
    const a = loadSuite(join(dir, 'ex/suite.yaml')).contentHash;
    write(join(dir, 'ex/catalog/tracker.yaml'), `${readFileSync(join(dir, 'ex/catalog/tracker.yaml'), 'utf8')}\n# edited\n`);
    const b = loadSuite(join(dir, 'ex/suite.yaml')).contentHash;
    write(join(dir, 'ex/intent-cases.jsonl'), readFileSync(join(dir, 'ex/intent-cases.jsonl'), 'utf8').replace('ship checkout', 'Ship checkout'));
    const c = loadSuite(join(dir, 'ex/suite.yaml')).contentHash;
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('reports problems at their lines: no tasks at all, a path outside the folder, a bad case, an unknown case id', () => {
    const dir = tempDir();
    copyExample('intents', join(dir, 'ex'));
    const f = join(dir, 'ex/s.yaml');
    write(f, 'skill_id: s\nversion: "1.0"\n');
    expect(errorOf(() => loadSuite(f)).message).toMatch(/no tasks: give "tasks", "intents", or both/);
    write(f, 'skill_id: s\nversion: "1.0"\nintents:\n  cases: ../x.jsonl\n  catalog: catalog/\n');
    expect(errorOf(() => loadSuite(f)).message).toMatch(/s\.yaml:4:\d+.*outside the suite's folder/);
    write(join(dir, 'ex/bad.jsonl'), '{"id": "a", "kind": "direct", "utterance": "x", "expect": {"behavior": "call", "capability": "issue.create"}}\n{"id": "b", "kind": "direct", "utterance": "y", "expect": {"behavior": "maybe"}}\n');
    write(f, 'skill_id: s\nversion: "1.0"\nintents: {cases: bad.jsonl, catalog: catalog/}\n');
    expect(errorOf(() => loadSuite(f)).message).toMatch(/bad\.jsonl:2:\d+.*unknown behavior "maybe"/);
    write(f, 'skill_id: s\nversion: "1.0"\nintents: {cases: intent-cases.jsonl, catalog: catalog/}\ntasks:\n  - id: extra\n    prompt: hi\n    judge: {type: tool_call, case_id: e-999}\n');
    expect(errorOf(() => loadSuite(f)).message).toMatch(/s\.yaml:7:\d+.*no intent case "e-999"/);
    write(f, 'skill_id: s\nversion: "1.0"\ntasks:\n  - id: extra\n    prompt: hi\n    judge: {type: tool_call, case_id: e-001}\n');
    expect(errorOf(() => loadSuite(f)).message).toMatch(/needs the suite's "intents:"/);
  });

  it('mock rule: a skill line naming a capability adds its other words to that capability only', () => {
    const entries = catalogEntries(suite.intents!.catalog);
    const skill = '---\nname: x\n---\n# Words\n- `ci.run`: kick off the build\nunrelated line about ci\n';
    expect([...skillKeywords(skill, entries)]).toEqual([['ci.run', ['kick off the build']]]);
    const taught = catalogWithSkill(entries, skill);
    expect(taught.find((c) => c.id === 'ci.run')!.keywords).toContain('kick off the build');
    expect(taught.find((c) => c.id === 'deploy.release')).toBe(entries.find((c) => c.id === 'deploy.release'));
    expect(catalogWithSkill(entries, undefined)).toBe(entries);
  });
});

describe('tool-calling engines', () => {
  it('get the catalogue as tools and the skill, and their tool calls become the decision the judge scores', async () => {
    const suite = loadSuite(join(repoRoot, 'examples/intents/suite.yaml'));
    const seen: EngineRequest[] = [];
    const engine: Engine = {
      type: 'openai',
      identity: () => ({ type: 'openai' }),
      async run(req) {
        seen.push(req);
        return { ok: true, output: '', tool_calls: [{ name: 'deploy_release', input: '{"service": "checkout", "environment": "production"}' }], usage: {}, duration_ms: 1 };
      },
    };
    const skill = { name: 'ops', text: '# skill text' };
    const res = await decideIntent({ engine, intentCase: suite.intents!.cases.get('e-006')!, intents: suite.intents!, skill, timeoutMs: 1000 });
    expect(seen[0]).toMatchObject({ prompt: 'ship checkout to prod', skill, toolChoice: 'auto' });
    expect(seen[0]!.tools!.map((t) => t.name)).toEqual(expect.arrayContaining(['deploy_release', 'ask_clarification', 'refuse']));
    expect(seen[0]!.system).toMatch(/Answer only by calling tools[\s\S]*"project": "PAY"/);
    expect(JSON.parse(res.output)).toMatchObject({ behavior: 'call', calls: [{ capability: 'deploy.release', params: { service: 'checkout', environment: 'production' } }], via: 'tool' });
    expect(judgeToolCall({ case_id: 'e-006' }, res.output, suite.intents)).toMatchObject({ passed: true, score: 1 });
    // Schema-breaking arguments are stopped (a hallucination), never scored as the expected call.
    const bad = judgeToolCall({ case_id: 'e-006' }, JSON.stringify({ behavior: 'call', calls: [{ capability: 'deploy.release', params: { service: 'checkout', environment: 'prod' } }] }), suite.intents);
    expect(bad.passed).toBe(false);
    expect(bad.reason).toMatch(/stopped by validation: deploy\.release: environment must be equal to one of the allowed values.*hit hallucination/);
  });
});

describe('gate intent checks', () => {
  const set = (over: { selection?: [number, number]; overreach?: number; hallucination?: number }) => {
    const f = (n: number, d: number) => ({ n, d, rate: d ? n / d : null });
    const [sn, sd] = over.selection ?? [16, 21];
    return { overall: { cases: 30, errors: 0, selection: f(sn, sd), params: f(14, 16), clarification: f(4, 6), false_clarification: f(5, 21), hallucination: f(over.hallucination ?? 0, 16), overreach: f(over.overreach ?? 0, 3), refusal: f(2, 3) }, by_kind: {} };
  };
  const res = (task_id: string, passed: boolean) => ({ task_id, passed, score: passed ? 1 : 0, status: passed ? 'pass' : 'fail', category: 'c', split: 'holdout', attempts: 1, passes: passed ? 1 : 0, errors: 0, reason: '' });
  // On the mock engine: these tests are about the intent checks; anywhere else a keep also needs the sign
  // test over enough fixed held-out tasks (issue 38), which two tasks cannot give.
  const evaluation = (cand: object, base: object) =>
    ({
      engine: { mock: true },
      verdict: 'pass',
      candidate_results: [res('a', true), res('b', true)],
      baseline_results: [res('a', true), res('b', false)],
      evaluation: { execution_pass_rate: 1, baseline_pass_rate: 0.5, delta: 0.5, verdict: 'pass', paired: { regressions: [] }, per_category: {}, candidate: { intent_metrics: cand }, baseline: { intent_metrics: base } },
    }) as unknown as PipelineEvaluation;
  const run = (cand: object, base: object) => decide({ evaluation: evaluation(cand, base), thresholds: THRESHOLD_DEFAULTS, category: 'coverage', risk: 'medium', integrity: [] });

  it('rejects a candidate with new overreach, with the numbers', () => {
    const d = run(set({ selection: [18, 21], overreach: 1 }), set({}));
    expect(d.decision).toBe('reject');
    expect(d.checks.find((c) => c.id === 'no_new_overreach')).toEqual({ id: 'no_new_overreach', passed: false, detail: 'overreach 1 (of 3 must-refuse) vs baseline 0 (of 3); must not grow' });
    expect(d.reason).toMatch(/overreach 1 \(of 3 must-refuse\) vs baseline 0/);
  });

  it('keeps one that improves selection without new overreach or hallucination', () => {
    const d = run(set({ selection: [18, 21] }), set({}));
    expect(d.decision).toBe('keep');
    expect(d.checks.find((c) => c.id === 'selection_not_dropped')).toMatchObject({ passed: true, detail: 'selection accuracy 18/21 (85.7%) vs baseline 16/21 (76.2%); must not drop' });
  });

  it('rejects a selection drop and a new hallucination; adds no checks without intent metrics on both', () => {
    expect(run(set({ selection: [15, 21] }), set({})).checks.find((c) => c.id === 'selection_not_dropped')!.passed).toBe(false);
    expect(run(set({ hallucination: 2 }), set({ hallucination: 1 })).decision).toBe('reject');
    const none = decide({ evaluation: evaluation(undefined as never, set({})), thresholds: THRESHOLD_DEFAULTS, category: 'coverage', risk: 'medium', integrity: [] });
    expect(none.checks.some((c) => c.id.startsWith('no_new_') || c.id === 'selection_not_dropped')).toBe(false);
    expect(none.decision).toBe('keep');
  });
});
