// `whet view` on a standalone run measured with and without the skill (`whet evaluate --standalone
// --without-skill`, issue 40): the run page states the skill's own effect with its interval, the outputs
// table puts no skill in the baseline's column and the skill in the candidate's (so "fixed" means passes
// only with the skill), a task shows both runs' attempts, and feedback on the no-skill answer is saved and
// exported as skill-creator's `without_skill` run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, tempDir, whet } from '../support/cli.js';
import { openBrowser, seriousViolations, startView, type Browser, type RunningView } from '../support/view.js';

let dir: string;
let runId: string;
let ev: { without_skill: { paired: { fixed: number; regressed: number }; effect: { effect: number; low: number; high: number; tasks: number } }; task_results: { task_id: string; status: string }[] };
let view: RunningView;
let b: Browser;

beforeAll(async () => {
  dir = tempDir('whet-view-noskill-');
  cpSync(join(repoRoot, 'examples/release-notes'), join(dir, 'skill'), { recursive: true });
  const r = await whet(['evaluate', '--standalone', '--without-skill', '--mock', '--skill-path', 'skill', '--task-suite', 'skill/tasks.yaml', '--state-root', 'state'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  runId = readdirSync(join(dir, 'state/runs'))[0]!;
  ev = JSON.parse(readFileSync(join(dir, 'state/runs', runId, 'evaluation.json'), 'utf8'));
  view = await startView(dir, ['--state-root', 'state']);
  b = await openBrowser(() => view.origin);
}, 90_000);

afterAll(async () => {
  await b?.context.close();
  if (view) expect(await view.stop()).toBe(0);
});

describe('whet view: with the skill against without it', () => {
  it('the run page states the skill\'s own effect with its interval', async () => {
    await b.page.goto(`${view.url}#/run/${runId}`);
    const box = b.page.locator('.without-skill');
    await box.waitFor();
    const { effect, low, high, tasks } = ev.without_skill.effect;
    const pts = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
    const text = await box.innerText();
    expect(text).toContain(`the skill's own effect: ${pts(effect)} points, 95% CI [${pts(low)}, ${pts(high)}] points, over ${tasks} task(s)`);
    expect(text).toContain(`${ev.without_skill.paired.fixed} task(s) pass only with it`);
    expect(await seriousViolations(b.page)).toEqual([]);
  });

  it('lists every task without and with the skill; a task shows both runs\' attempts; feedback on the no-skill answer exports as without_skill', async () => {
    await b.page.goto(`${view.url}#/run/${runId}/outputs/0`);
    await b.page.locator('#shown-count').waitFor();
    expect(await b.page.locator('.vrow.head').innerText()).toMatch(/without skill\s+with skill/);
    expect(await b.page.locator('#shown-count').innerText()).toBe(`${ev.task_results.length} of ${ev.task_results.length} tasks`);
    await b.page.selectOption('#f-status', 'fixed');
    expect(await b.page.locator('#shown-count').innerText()).toBe(`${ev.without_skill.paired.fixed} of ${ev.task_results.length} tasks`);
    expect(ev.without_skill.paired.fixed).toBeGreaterThan(0);
    await b.page.selectOption('#f-status', '');
    const task = ev.task_results[0]!.task_id;
    await b.page.locator(`.vrow[data-task="${task}"]`).click();
    const without = b.page.getByRole('region', { name: 'no-skill' });
    await without.waitFor();
    expect(await without.locator('h3').innerText()).toBe('Without the skill');
    expect(await b.page.getByRole('region', { name: 'baseline' }).locator('h3').innerText()).toBe('With the skill');
    expect(await without.locator('pre.output').count()).toBeGreaterThan(0);
    const lines = readFileSync(join(dir, 'state/runs', runId, 'results/no-skill.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(await without.locator('pre.output').first().innerText()).toBe(lines.find((l) => l.task_id === task).output);
    const form = b.page.getByRole('group', { name: 'feedback on the no-skill answer' });
    await form.getByRole('button', { name: 'Bad' }).click();
    await form.locator('textarea').fill('without the skill it lists no groups');
    await form.getByRole('button', { name: 'Save feedback' }).click();
    await expect.poll(() => form.getByRole('status').innerText()).toMatch(/^saved: bad/);
    const exported = await b.page.evaluate(async ([run, token]) => (await fetch(`/api/feedback/export?run=${encodeURIComponent(run!)}&session=${token}`)).json(), [runId, view.token]);
    // The first task is eval-0; feedback on the answer as a whole names the eval's run, no run-<n> (skill-creator-dirs.ts).
    expect(exported.reviews).toEqual([expect.objectContaining({ run_id: 'eval-0-without_skill', feedback: 'bad: without the skill it lists no groups' })]);
    expect(await seriousViolations(b.page)).toEqual([]);
  });
});
