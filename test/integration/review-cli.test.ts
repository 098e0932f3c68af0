// `whet review list | approve | reject` on a real loop run (mock engine): the gate holds every candidate
// that passes (review_risks lists every risk), and a person's decision is applied, refused or recorded.
import { describe, expect, it } from 'vitest';
import { appendFileSync, cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { exampleLoopProject, readJson, whet } from '../support/cli.js';

const CAND = 'cand-01-guidance-for-breaking-changes-requests';
const sha = (f: string) => `sha256:${createHash('sha256').update(readFileSync(f)).digest('hex')}`;
const later = (ms: number) => () => new Date(Date.now() + ms);

async function heldRun(): Promise<{ dir: string; runId: string; iter: (n: number) => string; lessons: () => any[] }> {
  const dir = exampleLoopProject({
    loop: '{max_iterations: 2, plateau_window: 3, candidates_per_iteration: 3, proposers: [feedback, structural]}',
    thresholds: '{min_delta: 0, max_new_failures: 0, review_risks: [low, medium, high]}',
    evaluate: '{concurrency: 2}',
  });
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const runId = readdirSync(join(dir, 'state/runs')).sort().pop()!;
  const iter = (n: number) => join(dir, 'state/runs', runId, `iter-${String(n).padStart(3, '0')}`);
  const lessons = () => readFileSync(join(dir, 'state/memory/lessons.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return { dir, runId, iter, lessons };
}

describe('whet review', () => {
  it('lists the held candidate with its iteration, and the next iteration does not evaluate the same content again', async () => {
    const { dir, runId, iter } = await heldRun();
    const list = await whet(['review', 'list'], { cwd: dir });
    expect(list.stdout).toBe(`${runId} iteration 1: ${CAND} — all checks passed; coverage changes (risk medium) wait for review\n`);
    expect(JSON.parse((await whet(['review', 'list', '--json'], { cwd: dir })).stdout)).toEqual([expect.objectContaining({ run_id: runId, iteration: 1, candidate: CAND })]);
    const held = readJson(join(iter(1), 'evaluation.json')).inputs.candidate;
    const second = readJson(join(iter(2), 'candidates.json'));
    expect(second.candidates.map((c: any) => c.content_sha256)).not.toContain(held);
    expect(second.skipped).toContainEqual(expect.objectContaining({ why: expect.stringContaining(`waits for review from iteration 1 of this run`) }));
  }, 60_000);

  it('reject records a reject lesson, and a new run does not propose, evaluate or hold that content again', async () => {
    const { dir, runId, iter, lessons } = await heldRun();
    const held = readJson(join(iter(1), 'evaluation.json')).inputs.candidate;
    const r = await whet(['review', 'reject', runId, CAND], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${CAND} \\(iteration 1\\): reject — rejected in review by `));
    expect(readJson(join(iter(1), 'gate.json')).decision).toBe('reject');
    expect(lessons().find((l) => l.run_id === runId && l.iteration === 1)).toMatchObject({ decision: 'reject', content_sha256: held, why: expect.stringMatching(/^rejected in review by /) });
    expect((await whet(['review', 'list'], { cwd: dir })).stdout).toBe('nothing waits for review\n');

    const again = await whet(['run'], { cwd: dir, now: later(60_000) });
    expect(again.code, again.stderr).toBe(0);
    const next = readdirSync(join(dir, 'state/runs')).sort().pop()!;
    expect(next).not.toBe(runId);
    const first = readJson(join(dir, 'state/runs', next, 'iter-001/candidates.json'));
    expect(first.candidates.map((c: any) => c.content_sha256)).not.toContain(held);
    expect(first.skipped).toContainEqual(expect.objectContaining({ why: expect.stringContaining('and rejected: rejected in review by') }));
  }, 60_000);

  it('approve applies the candidate under the gate checks and records a keep lesson', async () => {
    const { dir, runId, iter, lessons } = await heldRun();
    const variant = readJson(join(iter(1), 'candidates.json')).candidates.find((c: any) => c.id === CAND).variant_path;
    const r = await whet(['review', 'approve', runId, CAND], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(sha(join(dir, 'release-notes/SKILL.md'))).toBe(sha(join(iter(1), variant, 'SKILL.md')));
    const gate = readJson(join(iter(1), 'gate.json'));
    expect(gate).toMatchObject({ decision: 'keep', applied: expect.objectContaining({ backup: `backups/${runId}/iter-001` }) });
    expect(gate.checks.filter((c: any) => !c.passed)).toEqual([]);
    expect(lessons().find((l) => l.run_id === runId && l.iteration === 1)).toMatchObject({ decision: 'keep', why: expect.stringMatching(/^approved in review by /) });
  }, 60_000);

  it('approve refuses when ranking.json changed since the evaluation, or the thresholds did (showing the difference)', async () => {
    const { dir, runId, iter } = await heldRun();
    const target = sha(join(dir, 'release-notes/SKILL.md'));
    const ranking = join(iter(1), 'ranking.json');
    const original = readFileSync(ranking);
    writeFileSync(ranking, `${original.toString()}\n`);
    const r = await whet(['review', 'approve', runId, CAND], { cwd: dir });
    expect(r.code).toBe(2);
    // The run is verified first (issue 42): a ranking.json that is not the bytes whetstone wrote is damage.
    expect(r.stderr).toMatch(new RegExp(`cannot approve ${CAND} of run \\S+: run \\S+ is damaged`));
    expect(r.stderr).toMatch(/DAMAGED \S*iter-001\/ranking\.json: edited: /);
    writeFileSync(ranking, original);
    const cfg = join(dir, 'pipeline.yaml');
    writeFileSync(cfg, readFileSync(cfg, 'utf8').replace('min_delta: 0,', 'min_delta: 0.1,'));
    const t = await whet(['review', 'approve', runId, CAND], { cwd: dir });
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('min_delta: 0 (set before results) → 0.1 (pipeline.yaml now)');
    expect(sha(join(dir, 'release-notes/SKILL.md'))).toBe(target);
    expect(readJson(join(iter(1), 'gate.json')).decision).toBe('pending_review');
  }, 60_000);

  it('with the same id held in several iterations, refuses to guess and decides the one --iteration names', async () => {
    const { dir, runId, iter } = await heldRun();
    // Candidate ids restart in every iteration: a third iteration holding its own cand-01-… is the case.
    cpSync(iter(1), iter(3), { recursive: true });
    // As if whetstone had written them: a review acts only on files whose hashes the run recorded (issue 33).
    for (const f of readdirSync(iter(3)).filter((n) => n.endsWith('.json'))) {
      const line = { at: new Date().toISOString(), event: 'artifact_written', path: `iter-003/${f}`, sha256: sha(join(iter(3), f)) };
      appendFileSync(join(dir, 'state/runs', runId, 'events.jsonl'), `${JSON.stringify(line)}\n`);
    }
    const r = await whet(['review', 'reject', runId, CAND], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/waits for review in 2 iterations of run .*iteration 1: .*iteration 3: .*choose one with --iteration N/);
    expect((await whet(['review', 'reject', runId, CAND, '--iteration', '2'], { cwd: dir })).stderr).toMatch(/no candidate .* in iteration 2 .*\(it waits in iteration 1, 3\)/);
    expect((await whet(['review', 'reject', runId, CAND, '--iteration', 'x'], { cwd: dir })).code).toBe(2);
    const ok = await whet(['review', 'reject', runId, CAND, '--iteration', '3'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(readJson(join(iter(3), 'gate.json')).decision).toBe('reject');
    expect(readJson(join(iter(1), 'gate.json')).decision).toBe('pending_review');
  }, 60_000);
});
