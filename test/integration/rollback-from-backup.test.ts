// Issue 33, item 5: `whet rollback` works from the backups and the run's events.jsonl (which holds their
// hashes) when run.json is gone, restoring the skill byte for byte. Without events.jsonl as well, nothing
// vouches for the backups: refused, exit 2, nothing changed.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLoopProject, snapshotTree, whet } from '../support/cli.js';

async function keptRun(): Promise<{ dir: string; runDir: string; runId: string; skill: string; original: Buffer }> {
  const dir = exampleLoopProject({
    prefix: 'whet-rollback-nomanifest-',
    loop: '{max_iterations: 2, plateau_window: 3, candidates_per_iteration: 3, proposers: [feedback, structural]}',
    thresholds: '{min_delta: 0, max_new_failures: 0}',
  });
  const skill = join(dir, 'release-notes/SKILL.md');
  const original = readFileSync(skill);
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/gate: KEEP/);
  expect(readFileSync(skill).equals(original)).toBe(false);
  const runId = readdirSync(join(dir, 'state/runs')).sort().pop()!;
  return { dir, runDir: join(dir, 'state/runs', runId), runId, skill, original };
}

describe('whet rollback without run.json', () => {
  it('restores the skill byte for byte from the backups and the events', async () => {
    const { dir, runDir, runId, skill, original } = await keptRun();
    rmSync(join(runDir, 'run.json'));
    const r = await whet(['rollback', runId], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`run ${runId} has no run.json; rolling back from its backups and events.jsonl`);
    expect(r.stdout).toMatch(/^restored SKILL\.md \(sha256:[0-9a-f]{64}\)$/m);
    expect(readFileSync(skill).equals(original)).toBe(true);
    expect(readFileSync(join(runDir, 'events.jsonl'), 'utf8')).toContain('"event":"rollback"');
  }, 60_000);

  it('refuses when events.jsonl, which vouches for the backups, is gone too', async () => {
    const { dir, runDir, runId, skill } = await keptRun();
    rmSync(join(runDir, 'run.json'));
    rmSync(join(runDir, 'events.jsonl'));
    const kept = readFileSync(skill);
    const before = snapshotTree(join(dir, 'state'));
    const r = await whet(['rollback', runId], { cwd: dir });
    expect(r.code).toBe(2);
    // The acting paths' check (issue 42) refuses first, naming the file that vouched for the backups.
    expect(r.stderr).toMatch(/cannot roll back run \S+: run \S+ is damaged[\s\S]*events\.jsonl: missing: events\.jsonl is missing/);
    expect(readFileSync(skill).equals(kept)).toBe(true);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  }, 60_000);

  it('a run that never existed is still a wrong argument', async () => {
    const { dir } = await keptRun();
    const r = await whet(['rollback', '2020-01-01T00-00-00Z-nothing'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no run "2020-01-01T00-00-00Z-nothing"');
  }, 60_000);
});

describe('a gate.json cut in half over a kept change', () => {
  it('does not hide the keep from status, show and report (the backup says what was applied), and rollback still restores', async () => {
    const { dir, runDir, runId, skill, original } = await keptRun();
    const gate = join(runDir, 'iter-001/gate.json');
    const text = readFileSync(gate, 'utf8');
    writeFileSync(gate, text.slice(0, Math.floor(text.length / 2)));
    const status = await whet(['status'], { cwd: dir });
    expect(status.stdout).toMatch(/1:keep/);
    const show = await whet(['show', runId], { cwd: dir });
    expect(show.stdout).toMatch(/gate: KEEP {2}— gate\.json cannot be read, but backups\/\S+\/iter-001 shows a candidate was applied \(SKILL\.md\)/);
    // A damaged run's evidence is refused unless marked (issue 31); marked, it still says the keep.
    const report = await whet(['report', runId], { cwd: dir });
    expect(report.code).toBe(1);
    expect(report.stderr).toMatch(/iter-001\/gate\.json:\d+:\d+: unparsable/);
    const marked = await whet(['report', runId, '--allow-damaged'], { cwd: dir });
    expect(marked.stdout).toContain('DAMAGED RUN');
    expect(marked.stdout).toContain('gate.json cannot be read');
    const r = await whet(['rollback', runId], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(skill).equals(original)).toBe(true);
  }, 60_000);
});
