// The review queue in `whet view --review`, in headless Chromium: a candidate the gate held is listed with
// its diff and checks; approving it in the page runs what `whet review approve` runs — the same integrity
// checks (a changed ranking.json refused with the command's own message), lock and message — and leaves
// the same files as the command does on an identical project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLoopProject, readJson, snapshotTree, whet } from '../support/cli.js';
import { openBrowser, seriousViolations, startView, type Browser, type RunningView } from '../support/view.js';

const CAND = 'cand-01-guidance-for-breaking-changes-requests';

async function heldProject(prefix: string): Promise<{ dir: string; runId: string }> {
  const dir = exampleLoopProject({
    prefix,
    loop: '{max_iterations: 1, candidates_per_iteration: 3, proposers: [feedback, structural]}',
    thresholds: '{min_delta: 0, max_new_failures: 0, review_risks: [low, medium, high]}',
  });
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return { dir, runId: readdirSync(join(dir, 'state/runs'))[0]! };
}

let viewed: { dir: string; runId: string };
let typed: { dir: string; runId: string };
let view: RunningView;
let b: Browser;

beforeAll(async () => {
  viewed = await heldProject('whet-view-review-');
  typed = await heldProject('whet-view-typed-');
  view = await startView(viewed.dir, ['--review']);
  b = await openBrowser(() => view.origin);
}, 90_000);

afterAll(async () => {
  await b?.context.close();
  if (view) expect(await view.stop()).toBe(0);
});

/** What a state leaves that does not depend on where or when it ran. */
const comparable = (dir: string, runId: string) => {
  const gate = readJson(join(dir, 'state/runs', runId, 'iter-001/gate.json'));
  const lesson = readFileSync(join(dir, 'state/memory/lessons.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).find((l) => l.run_id === runId);
  return {
    skill: snapshotTree(join(dir, 'release-notes')),
    backups: snapshotTree(join(dir, 'state/backups', runId, 'iter-001/files')),
    backup: (({ run_id: _r, target_dir: _t, created_at: _c, ...rest }) => rest)(readJson(join(dir, 'state/backups', runId, 'iter-001/manifest.json'))),
    gate: { decision: gate.decision, candidate: gate.candidate_id, reason: gate.reason, checks: gate.checks.map((c: { id: string; passed: boolean }) => [c.id, c.passed]), files: gate.applied?.files },
    lesson: { decision: lesson.decision, why: lesson.why, content: lesson.content_sha256 },
  };
};

describe('whet view --review', () => {
  it('lists the held candidate with its diff and checks, and passes axe-core', async () => {
    await b.page.goto(`${view.url}#/review`);
    const held = b.page.getByRole('region', { name: `${CAND} in iteration 1` });
    await held.waitFor();
    expect(await held.locator('pre.diff').innerText()).toContain('+## Release notes requests involving breaking changes');
    expect(await held.locator('ol.checks li').count()).toBeGreaterThan(5);
    expect(await held.innerText()).toContain('wait for review');
    // The check that holds it is a person's, not a failure: "waits for you", never a red FAIL.
    const review = held.locator('ol.checks li', { hasText: /\breview:/ });
    expect(await review.innerText()).toMatch(/^waits for you review: /);
    expect(await held.locator('ol.checks').innerText()).not.toContain('FAIL');
    // Counted in the navigation on every page.
    await expect.poll(() => b.page.locator('#nav-review').innerText()).toBe('Review queue (1 run waits)');
    expect(await seriousViolations(b.page)).toEqual([]);
  });

  it('leads the run page with what waits for review, and marks the run on the runs list', async () => {
    await b.page.goto(`${view.url}#/run/${viewed.runId}`);
    await b.page.getByRole('heading', { name: `Run ${viewed.runId}` }).waitFor();
    const first = b.page.locator('main > section').first();
    await first.waitFor();
    expect(await first.getAttribute('class')).toBe('needs-you');
    expect(await first.locator('h2').innerText()).toBe('Waits for your review (1)');
    expect(await first.innerText()).toContain(`iteration 1: ${CAND}`);
    expect(await first.locator('.verdict').evaluate((e) => getComputedStyle(e, '::before').content)).toBe('"◐"');
    expect(await b.page.locator('section[data-iteration="1"] .decision').evaluate((e) => e.className)).toBe('decision v-pending');
    expect(await seriousViolations(b.page)).toEqual([]);
    await b.page.goto(`${view.url}#/`);
    const row = b.page.locator(`tr[data-run="${viewed.runId}"]`);
    await row.waitFor();
    await b.page.locator('.needs-you').waitFor();
    expect(await row.locator('.waits').innerText()).toBe('1 candidate waits for you');
    expect(await b.page.locator('.needs-you').innerText()).toBe('1 run waits for your review');
    await b.page.goto(`${view.url}#/review`);
    await b.page.getByRole('region', { name: `${CAND} in iteration 1` }).waitFor();
  });

  it('refuses with the command’s own message when ranking.json changed after the evaluation', async () => {
    const ranking = join(viewed.dir, 'state/runs', viewed.runId, 'iter-001/ranking.json');
    const original = readFileSync(ranking);
    writeFileSync(ranking, `${original.toString()}\n`);
    try {
      await b.page.getByRole('button', { name: `Approve ${CAND}` }).click();
      await b.page.getByRole('button', { name: `Yes, apply ${CAND}` }).click();
      const note = b.page.locator('#review-message');
      await note.waitFor();
      // The run is verified first, as `whet review approve` verifies it (issue 42): the ranking is not the bytes written.
      expect(await note.innerText()).toMatch(new RegExp(`^refused: cannot approve ${CAND} of run \\S+: run \\S+ is damaged`));
      expect(await note.innerText()).toMatch(/DAMAGED \S*iter-001\/ranking\.json: edited: /);
      expect(readJson(join(viewed.dir, 'state/runs', viewed.runId, 'iter-001/gate.json')).decision).toBe('pending_review');
      // Redrawn from the verified queue, the damaged run's candidate is no longer offered (issue 42).
      expect(await b.page.getByRole('button', { name: `Approve ${CAND}` }).count()).toBe(0);
    } finally {
      writeFileSync(ranking, original);
    }
    await b.page.reload();
    await b.page.getByRole('button', { name: `Approve ${CAND}` }).waitFor();
  });

  it('approves as `whet review approve` does: the same message and the same files', async () => {
    // Approve asks first, naming what it changes; nothing is changed until the second click.
    const skill = readFileSync(join(viewed.dir, 'release-notes/SKILL.md'), 'utf8');
    await b.page.getByRole('button', { name: `Approve ${CAND}` }).click();
    const ask = b.page.getByRole('group', { name: `confirm approving ${CAND}` });
    await ask.waitFor();
    expect(await ask.innerText()).toContain(`Approve ${CAND}? Its edit is applied to ${join(viewed.dir, 'release-notes')} now; the files it replaces are backed up first (whet rollback ${viewed.runId} restores them).`);
    expect(await b.page.evaluate(() => document.activeElement?.textContent)).toBe(`Yes, apply ${CAND}`);
    expect(await seriousViolations(b.page)).toEqual([]);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await b.page.getByRole('button', { name: `Approve ${CAND}` }).waitFor();
    expect(readFileSync(join(viewed.dir, 'release-notes/SKILL.md'), 'utf8')).toBe(skill);
    expect(readJson(join(viewed.dir, 'state/runs', viewed.runId, 'iter-001/gate.json')).decision).toBe('pending_review');
    await b.page.getByRole('button', { name: `Approve ${CAND}` }).click();
    await b.page.getByRole('button', { name: `Yes, apply ${CAND}` }).click();
    const note = b.page.locator('#review-message');
    await expect.poll(() => note.innerText()).toMatch(/^cand-01/);
    const shown = await note.innerText();
    // Then what it did: where it applied the edit, and where the backup is.
    expect(await b.page.locator('#review-applied').innerText()).toBe(`applied to ${join(viewed.dir, 'release-notes')} (SKILL.md); backup in ${join(viewed.dir, 'state')}/backups/${viewed.runId}/iter-001`);
    expect(readFileSync(join(viewed.dir, 'release-notes/SKILL.md'), 'utf8')).not.toBe(skill);
    await expect.poll(() => b.page.locator('#nav-review').innerText()).toBe('Review queue');
    const cli = await whet(['review', 'approve', typed.runId, CAND], { cwd: typed.dir });
    expect(cli.code, cli.stderr).toBe(0);
    expect(shown).toBe(cli.stdout.trimEnd());
    expect(shown).toMatch(new RegExp(`^${CAND} \\(iteration 1\\): keep — `));
    expect(comparable(viewed.dir, viewed.runId)).toEqual(comparable(typed.dir, typed.runId));
    expect(await b.page.getByText('Nothing waits for review.').count()).toBe(1);
    // The one refusal above answered 400, which Chromium logs; nothing else.
    expect(b.consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    expect(b.foreignRequests).toEqual([]);
  });
});
