// `whet rollback` after a keep, when someone edited the target since: refused (exit 2, nothing changed)
// naming what differs, unless --force, which copies the edited bytes aside before restoring. `whet status`
// shows a run that was rolled back.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLoopProject, snapshotTree, whet } from '../support/cli.js';

const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');

async function keptRun(): Promise<{ dir: string; runId: string; skill: string; original: string }> {
  const dir = exampleLoopProject({
    prefix: 'whet-rollback-',
    loop: '{max_iterations: 1, plateau_window: 2, candidates_per_iteration: 3, proposers: [feedback, structural]}',
    thresholds: '{min_delta: 0, max_new_failures: 0}',
  });
  const skill = join(dir, 'release-notes/SKILL.md');
  const original = sha(skill);
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/gate: KEEP/);
  expect(sha(skill)).not.toBe(original);
  return { dir, runId: readdirSync(join(dir, 'state/runs')).sort().pop()!, skill, original };
}

describe('whet rollback over a later hand edit', () => {
  it('refuses with exit 2, changing nothing, and says which file differs from what the run left', async () => {
    const { dir, runId, skill } = await keptRun();
    appendFileSync(skill, '\nA rule added by hand after the keep.\n');
    const edited = readFileSync(skill);
    const before = snapshotTree(join(dir, 'state'));
    const r = await whet(['rollback', runId], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not rolling back run .*: SKILL\.md changed after the keep of iteration 1 \(now sha256:[0-9a-f]{12}…, the run left sha256:[0-9a-f]{12}…\)/);
    expect(r.stderr).toMatch(/nothing was changed\. Pass --force/);
    expect(readFileSync(skill).equals(edited)).toBe(true);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
    const status = await whet(['status'], { cwd: dir });
    expect(status.stdout).not.toContain('rolled back');
    const show = await whet(['show', runId], { cwd: dir });
    expect(show.stdout).toMatch(/\n {4}applied to \S+; backup in backups\//);
    expect(show.stdout).not.toContain('undone by rollback');
  }, 60_000);

  it('restores with --force, keeping a copy of the edited file, and status shows the run was rolled back', async () => {
    const { dir, runId, skill, original } = await keptRun();
    appendFileSync(skill, '\nA rule added by hand after the keep.\n');
    const edited = readFileSync(skill);
    const r = await whet(['rollback', runId, '--force'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(sha(skill)).toBe(original);
    const saved = /the edited file was copied to (\S+)\n/.exec(r.stderr)?.[1];
    expect(saved).toBeDefined();
    expect(readFileSync(saved!).equals(edited)).toBe(true);
    const status = await whet(['status'], { cwd: dir });
    expect(status.stdout).toContain(`${runId}  loop  completed (rolled back)  `);
    expect(status.stdout).toMatch(/\n {4}rolled back \d{4}-\d{2}-\d{2}T[^:]+:\d{2}:\d{2}\.\d{3}Z: the target was restored/);
    // show, like status, no longer says the keep is in the target: it says it was undone, and when.
    const show = await whet(['show', runId], { cwd: dir });
    expect(show.stdout).toMatch(/ — status completed \(rolled back \d{4}-[^)]+\)/);
    expect(show.stdout).toMatch(/\n {4}applied to \S+, then undone by rollback at \d{4}-\S+: the target is as it was before the run; backup in /);
    expect((await whet(['show', runId, 'gate'], { cwd: dir })).stdout).toContain('then undone by rollback at');
    expect((await whet(['report', runId], { cwd: dir })).stdout).toMatch(/^> rolled back \d{4}-\S+: the target was restored to what it was before this run/m);
    const json = JSON.parse((await whet(['status', '--json'], { cwd: dir })).stdout);
    expect(json.find((x: any) => x.run_id === runId).rolled_back_at).toMatch(/^\d{4}-/);
    // A second rollback finds the target already restored and changes nothing.
    const again = await whet(['rollback', runId], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already as before the run');
    expect(sha(skill)).toBe(original);
  }, 60_000);
});

describe('whet rollback of a run that promoted nothing', () => {
  it('says so plainly with exit 2 (a wrong run named, not an infrastructure failure), changing nothing', async () => {
    const dir = exampleLoopProject({
      prefix: 'whet-rollback-none-',
      loop: '{max_iterations: 1, plateau_window: 2, candidates_per_iteration: 3, proposers: [feedback, structural]}',
      // No held-out gain can reach this: the gate rejects, nothing is applied, no backup is made.
      thresholds: '{min_delta: 0.9, max_new_failures: 0}',
    });
    const skill = join(dir, 'release-notes/SKILL.md');
    const original = sha(skill);
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/gate: KEEP/);
    const runId = readdirSync(join(dir, 'state/runs')).sort().pop()!;
    const before = snapshotTree(join(dir, 'state'));
    const rb = await whet(['rollback', runId], { cwd: dir });
    expect(rb.code, rb.stderr).toBe(2);
    expect(rb.stderr).toBe(`whet: run ${runId} promoted nothing (no gate kept a candidate), so there is nothing to roll back; nothing was changed\n`);
    expect(rb.stdout).toBe('');
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
    expect(sha(skill)).toBe(original);
  });
});
