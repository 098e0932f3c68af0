// Issue 33, item 1: commands that change the skill act only on artifacts whose bytes are the ones
// whetstone recorded (events.jsonl) when it wrote them. A rejected candidate's gate.json edited to
// "pending_review" is refused by `whet review approve` — exit 2, the file named, nothing written — and so
// is an edited evaluation.json at the gate, and an edited backup manifest at rollback.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLoopProject, readJson, snapshotTree, whet } from '../support/cli.js';

const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');

/** Two iterations: the first keeps, the second rejects (the example's mock engine, as in loop.test.ts). */
async function twoIterations(): Promise<{ dir: string; runId: string; iter: (n: number) => string; skill: string }> {
  const dir = exampleLoopProject({
    prefix: 'whet-edited-',
    loop: '{max_iterations: 2, plateau_window: 3, candidates_per_iteration: 3, proposers: [feedback, structural]}',
    thresholds: '{min_delta: 0, max_new_failures: 0}',
  });
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const runId = readdirSync(join(dir, 'state/runs')).sort().pop()!;
  const iter = (n: number) => join(dir, 'state/runs', runId, `iter-${String(n).padStart(3, '0')}`);
  expect(readJson(join(iter(1), 'gate.json')).decision).toBe('keep');
  expect(readJson(join(iter(2), 'gate.json')).decision).toBe('reject');
  return { dir, runId, iter, skill: join(dir, 'release-notes/SKILL.md') };
}

describe('an edited decision is never acted on', () => {
  it('review approve refuses a rejected gate.json edited to pending_review: exit 2, the file named, nothing written', async () => {
    const { dir, runId, iter, skill } = await twoIterations();
    const gate = join(iter(2), 'gate.json');
    const g = readJson(gate);
    writeFileSync(gate, `${JSON.stringify({ ...g, decision: 'pending_review', verdict: 'pending_review' }, null, 2)}\n`);
    // The edit is a valid artifact, but not the bytes whetstone wrote: review list names it as damaged
    // (exit 1) and never lists it as waiting (issue 31); approve checks the bytes too.
    const list = await whet(['review', 'list'], { cwd: dir });
    expect(list.stdout).not.toContain(`${runId} iteration 2: ${g.candidate_id}`);
    expect(list.stderr).toMatch(/DAMAGED \S+iter-002\/gate\.json: edited: iteration 2's gate\.json was changed after whetstone wrote it/);
    expect(list.code).toBe(1);
    const skillBefore = sha(skill);
    const before = snapshotTree(join(dir, 'state'));
    const r = await whet(['review', 'approve', runId, g.candidate_id], { cwd: dir });
    expect(r.code).toBe(2);
    // The run is verified as the read models verify it before anything is done (issue 42).
    expect(r.stderr).toMatch(/cannot approve \S+ of run \S+: run \S+ is damaged.*; nothing was changed/);
    expect(r.stderr).toMatch(/DAMAGED \S*state\/runs\/\S+\/iter-002\/gate\.json: edited: iteration 2's gate\.json was changed after whetstone wrote it \(now sha256:[0-9a-f]{12}…, written sha256:[0-9a-f]{12}…\)/);
    expect(r.stderr).toContain('whet verify --repair');
    expect(sha(skill)).toBe(skillBefore);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
    // reject too: it would record a lesson from a decision nobody made.
    expect((await whet(['review', 'reject', runId, g.candidate_id], { cwd: dir })).code).toBe(2);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  }, 60_000);

  it('the gate refuses an evaluation.json edited after it was written, before moving or applying anything', async () => {
    const { dir, iter, skill } = await twoIterations();
    const evaluation = join(iter(2), 'evaluation.json');
    const e = readJson(evaluation);
    writeFileSync(evaluation, `${JSON.stringify({ ...e, verdict: e.verdict === 'pass' ? 'fail' : 'pass' }, null, 2)}\n`);
    const skillBefore = sha(skill);
    const before = snapshotTree(join(dir, 'state'));
    const r = await whet(['gate'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/cannot run the gate stage of run \S+: run \S+ is damaged/);
    expect(r.stderr).toMatch(/DAMAGED \S*iter-002\/evaluation\.json: edited: iteration 2's evaluation\.json was changed after whetstone wrote it/);
    expect(sha(skill)).toBe(skillBefore);
    // Refused before the old decision was moved away: the state directory is as it was.
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  }, 60_000);

  it('the gate refuses an earlier gate.json edited after it was written (its p-value joins the Holm family)', async () => {
    const { dir, iter } = await twoIterations();
    const first = join(iter(1), 'gate.json');
    const g = readJson(first);
    writeFileSync(first, `${JSON.stringify({ ...g, holdout: { ...g.holdout, p_value: 0.0001 } }, null, 2)}\n`);
    const r = await whet(['gate'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/DAMAGED \S*iter-001\/gate\.json: edited: iteration 1's gate\.json was changed after whetstone wrote it/);
  }, 60_000);

  it('rollback refuses a backup manifest edited to point elsewhere, restoring nothing', async () => {
    const { dir, runId, skill } = await twoIterations();
    const manifest = join(dir, 'state/backups', runId, 'iter-001/manifest.json');
    const m = readJson(manifest);
    writeFileSync(manifest, `${JSON.stringify({ ...m, target_dir: join(dir, 'elsewhere') }, null, 2)}\n`);
    const skillBefore = sha(skill);
    const before = snapshotTree(join(dir, 'state'));
    const r = await whet(['rollback', runId], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot roll back run \S+: run \S+ is damaged/);
    expect(r.stderr).toMatch(/DAMAGED \S*backups\/\S+\/iter-001\/manifest\.json: edited: the backup manifest of iter-001 was changed after whetstone wrote it/);
    expect(sha(skill)).toBe(skillBefore);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  }, 60_000);
});
