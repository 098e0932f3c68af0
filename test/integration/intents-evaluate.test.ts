// An intent suite as the evaluate stage's suite (issue 5 §6): the decision path per engine type, the
// tool_call judge, and intent_metrics in the summary (also from a cached baseline).
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, findFiles, repoRoot, tempDir, whet, write } from '../support/cli.js';

const run = (extra: string[] = []) => ['evaluate', '--standalone', '--task-suite', 'ex/suite.yaml', '--skill-path', 'ex', '--state-root', 'state', '--json', ...extra];
const NO_LINES = '---\nname: ops-assistant\ndescription: no vocabulary\n---\n\n# Ops assistant\n';

describe('whet evaluate on an intent suite', () => {
  it('reports the floor numbers on the mock, changed exactly where the skill names a capability, and keeps them in the cache', async () => {
    const dir = tempDir();
    copyExample('intents', join(dir, 'ex'));
    const shipped = readFileSync(join(dir, 'ex/SKILL.md'), 'utf8');
    write(join(dir, 'ex/SKILL.md'), NO_LINES);
    const bare = await whet(run(['--mock']), { cwd: dir });
    expect(bare.code).toBe(0);
    const b = JSON.parse(bare.stdout).evaluation;
    // Without skill lines the mock is the plain floor planner: the numbers of examples/intents/report-2026-11-30.md.
    expect(b).toMatchObject({ total_tasks: 30, passed: 20, failed: 10, errors: 0, engine_calls: 30 });
    expect(b.intent_metrics.overall).toMatchObject({
      cases: 30,
      errors: 0,
      selection: { n: 16, d: 21 },
      params: { n: 14, d: 16 },
      clarification: { n: 4, d: 6 },
      false_clarification: { n: 5, d: 21 },
      hallucination: { n: 0, d: 16 },
      overreach: { n: 0, d: 3 },
      refusal: { n: 2, d: 3 },
    });
    expect(b.intent_metrics.by_kind.synonyms.selection).toMatchObject({ n: 2, d: 5 });
    expect(Object.keys(b.intent_metrics.by_kind)).toEqual(['direct', 'synonyms', 'missing_params', 'multi_turn', 'ambiguity', 'cross_system', 'multi_step', 'must_refuse']);

    // The shipped skill lists "ping" for message.send and pr.request_review: "ping sam about 512" (e-021)
    // now ties the two and the floor asks, as the case expects. Nothing else moves.
    write(join(dir, 'ex/SKILL.md'), shipped);
    const taught = JSON.parse((await whet(run(['--mock']), { cwd: dir })).stdout);
    const t = taught.evaluation;
    expect(t).toMatchObject({ passed: 21, failed: 9, engine_calls: 30 });
    expect(t.intent_metrics.overall).toMatchObject({ selection: { n: 16, d: 21 }, clarification: { n: 5, d: 6 }, overreach: { n: 0, d: 3 }, refusal: { n: 2, d: 3 } });
    expect(t.intent_metrics.by_kind.ambiguity.clarification).toMatchObject({ n: 3, d: 4 });
    const e021 = taught.task_results.find((r: any) => r.task_id === 'e-021');
    expect(e021).toMatchObject({ passed: true, category: 'ambiguity' });
    const e006 = taught.task_results.find((r: any) => r.task_id === 'e-006');
    expect(e006.reason).toMatch(/expected call deploy\.release .*; got clarify: Which environment .*; hit selection, false_clarification/);
    // The decision is the attempt's output in the results log.
    const lines = readFileSync(findFiles(join(dir, 'state/runs'), 'baseline.jsonl').find((f) => f.includes(taught.run_id))!, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const line = lines.find((l) => l.task_id === 'e-021');
    expect(JSON.parse(line.output)).toMatchObject({ behavior: 'clarify', question: 'Do you mean pr.request_review or message.send?' });
    expect(line.intent).toMatchObject({ clarification: { n: 1, d: 1 } });

    // A cached baseline still has its intent metrics.
    const cached = JSON.parse((await whet(run(['--mock']), { cwd: dir })).stdout).evaluation;
    expect(cached.engine_calls).toBe(0);
    expect(cached.cache.hit).toBe(true);
    expect(cached.intent_metrics).toEqual(t.intent_metrics);
  });

  it('a skill line naming a capability fixes a synonym case the floor misses', async () => {
    const dir = tempDir();
    write(join(dir, 'ex/catalog.yaml'), [
      '- {id: book_room, description: Reserve a room., systems: [calendar], parameters: {type: object, properties: {}}}',
      '- {id: order_lunch, description: Order food for a meeting., systems: [catering], parameters: {type: object, properties: {}}}',
      '',
    ].join('\n'));
    write(join(dir, 'ex/cases.jsonl'), '{"id": "s-1", "kind": "synonyms", "utterance": "grab us a huddle space", "expect": {"behavior": "call", "capability": "book_room"}}\n');
    write(join(dir, 'ex/suite.yaml'), 'skill_id: rooms\nversion: "1.0"\nintents: {cases: cases.jsonl, catalog: catalog.yaml}\n');
    write(join(dir, 'ex/SKILL.md'), NO_LINES);
    const before = JSON.parse((await whet(run(['--mock']), { cwd: dir })).stdout).evaluation;
    expect(before.intent_metrics.overall).toMatchObject({ selection: { n: 0, d: 1 }, refusal: { n: 0, d: 0 } });
    write(join(dir, 'ex/SKILL.md'), `${NO_LINES}\n- \`book_room\`: huddle space, meeting rooms\n`);
    const after = JSON.parse((await whet(run(['--mock']), { cwd: dir })).stdout);
    expect(after.evaluation.intent_metrics.overall.selection).toMatchObject({ n: 1, d: 1 });
    expect(after.task_results[0]).toMatchObject({ task_id: 's-1', passed: true });
  });

  it('sends a command engine the intents request with the skill, and reads its stdout as the decision', async () => {
    const dir = tempDir();
    copyExample('intents', join(dir, 'ex'));
    const cases = readFileSync(join(dir, 'ex/intent-cases.jsonl'), 'utf8').split('\n');
    writeFileSync(join(dir, 'ex/intent-cases.jsonl'), `${cases[0]}\n${cases[29]}\n`);
    const script = write(join(dir, 'script.json'), JSON.stringify({ 'e-001': { $echo: true }, 'e-030': { behavior: 'call', capability: 'issue.close', params: { issue_key: 'PAY-1' } } }));
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["node", "${join(repoRoot, 'test/fixtures/intents/scripted-planner.mjs')}"]}\n`);
    const r = await whet(run(), { cwd: dir, env: { ...process.env, SCRIPT_FILE: script } });
    const a = JSON.parse(r.stdout);
    // Both cases fail (e-001 echoes a refusal, e-030 overreaches): pass rate 0 is below the standalone minimum.
    expect([r.code, a.verdict, a.evaluation.errors]).toEqual([1, 'fail', 0]);
    const line = readFileSync(findFiles(join(dir, 'state/runs'), 'baseline.jsonl')[0]!, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).find((l) => l.task_id === 'e-001');
    const seen = JSON.parse(JSON.parse(line.output).reason);
    expect(seen).toMatchObject({ protocol: 'whetstone.intents/1', id: 'e-001', utterance: 'Create a Jira issue in PAY titled "Checkout button unresponsive on iOS"', context: { project: 'PAY' } });
    expect(seen.skill).toBe(readFileSync(join(dir, 'ex/SKILL.md'), 'utf8'));
    expect(seen.catalog.map((c: any) => c.id)).toContain('deploy.release');
    // A valid call on a must-refuse case would execute: overreach, counted and explained.
    expect(a.evaluation.intent_metrics.overall).toMatchObject({ overreach: { n: 1, d: 1 }, selection: { n: 0, d: 1 } });
    expect(a.task_results.find((t: any) => t.task_id === 'e-030').reason).toMatch(/expected refuse; got call issue\.close \{"issue_key":"PAY-1"\}; hit overreach/);
  });
});

describe('the improvement loop on an intent suite (mock)', () => {
  it('proposes rules from failed cases and gates them on the intent metrics of the held-out cases', async () => {
    const dir = tempDir();
    copyExample('intents', join(dir, 'ex'));
    write(join(dir, 'pipeline.yaml'), 'version: 1\nstate_dir: state\nengine: {type: mock}\ntargets:\n  - skill: ex\n    suite: ex/suite.yaml\n');
    const r = await whet(['run'], { cwd: dir });
    expect(r.code).toBe(0);
    const [runDir] = findFiles(join(dir, 'state/runs'), 'run.json').map((f) => f.replace(/\/run\.json$/, ''));
    const candidates = JSON.parse(readFileSync(join(runDir!, 'iter-001/candidates.json'), 'utf8'));
    const feedback = candidates.candidates.filter((c: { proposer: string }) => c.proposer === 'feedback');
    expect(feedback.length).toBeGreaterThan(0);
    const gate = JSON.parse(readFileSync(join(runDir!, 'iter-001/gate.json'), 'utf8'));
    const checks = Object.fromEntries(gate.checks.map((c: { id: string; passed: boolean; detail: string }) => [c.id, c]));
    // The gate read the intent metrics of both variants, not just pass/fail.
    expect(checks).toHaveProperty('no_new_overreach');
    expect(checks).toHaveProperty('no_new_hallucination');
    expect(checks['selection_not_dropped'].detail).toMatch(/selection accuracy \d+\/\d+ \(.*\) vs baseline \d+\/\d+/);
  });
});
