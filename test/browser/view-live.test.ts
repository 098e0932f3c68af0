// `whet view` while a loop started by another process runs (the slow-agent engine: 1.5 s per call, so a
// person has seconds to act between stages): the run appears on the runs page and advances on the run
// page without a reload, from the state directory's own files; feedback given on iteration 1's outputs
// reaches the next generator's input for a train task and never for a held-out one, and leaves every file
// the run had already written unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJson } from '../support/cli.js';
import { slowProject, startWhet, waitFor, type SlowProject, type Started } from '../support/slow-run.js';
import { openBrowser, startView, type Browser, type RunningView } from '../support/view.js';

let p: SlowProject;
let loop: Started;
let view: RunningView;
let b: Browser;

beforeAll(async () => {
  p = slowProject({ seconds: 1.5, concurrency: 4, maxIterations: 2 });
  view = await startView(p.dir);
  b = await openBrowser(() => view.origin);
}, 60_000);

afterAll(async () => {
  if (loop && !loop.done()) loop.child.kill('SIGTERM');
  await b?.context.close();
  if (view) expect(await view.stop()).toBe(0);
});

const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
const runDir = () => join(p.dir, 'state/runs', readdirSync(join(p.dir, 'state/runs'))[0]!);

describe('whet view on a loop another process is running', () => {
  it('shows the run appear and advance without reloading, then takes feedback the next generator reads for train tasks only', async () => {
    await b.page.goto(view.url);
    await b.page.getByText('No runs yet').waitFor();
    // Set on this page load: still there at the end means the page was never reloaded.
    await b.page.evaluate(() => ((window as unknown as { __sameLoad: number }).__sameLoad = 1));
    loop = startWhet(p, ['run']);
    const row = b.page.locator('tr[data-run]');
    await row.first().waitFor({ timeout: 15_000 });
    const runId = (await row.first().getAttribute('data-run'))!;
    await expect.poll(() => row.first().locator('.run-status').innerText(), { timeout: 10_000 }).toBe('running');

    await b.page.getByRole('link', { name: runId }).click();
    await b.page.locator('#progress').waitFor({ timeout: 15_000 });
    const first = await b.page.locator('#progress').innerText();
    expect(first).toMatch(/iteration 1, baseline: \d+\/10 tasks judged/);
    await expect.poll(() => b.page.locator('#progress').innerText(), { timeout: 15_000 }).not.toBe(first);

    // Iteration 1's baseline is measured: give feedback on a train task and on a held-out one.
    await waitFor('iteration 1 baseline', () => existsSync(join(runDir(), 'iter-001/baseline.json')), 30_000);
    const rows = readJson(join(runDir(), 'iter-001/baseline.json')).task_results as { task_id: string; split: string; category: string }[];
    const train = rows.find((r) => r.split === 'train')!.task_id;
    const held = rows.find((r) => r.split === 'holdout')!.task_id;
    const before = { baseline: sha(join(runDir(), 'iter-001/baseline.json')), settings: JSON.stringify(readJson(join(runDir(), 'run.json')).settings) };
    for (const [task, comment] of [[train, 'the breaking change is buried at the end'], [held, 'held-out: must never reach the generator']] as const) {
      await b.page.goto(`${view.url}#/run/${runId}/outputs/1/${task}`);
      const form = b.page.getByRole('group', { name: 'feedback on the baseline answer' });
      await form.getByRole('button', { name: 'Bad' }).click();
      await form.getByRole('textbox').fill(comment);
      await form.getByRole('button', { name: 'Save feedback' }).click();
      await expect.poll(() => form.getByRole('status').innerText()).toMatch(/^saved: bad/);
    }
    const given = readFileSync(join(p.dir, 'state/memory/feedback.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(given.map((f) => [f.task_id, f.split])).toEqual([[train, 'train'], [held, 'holdout']]);

    // Back on the run page (a hash change, not a reload): the loop's next iterations appear as they are written.
    await b.page.goto(`${view.url}#/run/${runId}`);
    await b.page.locator('section[data-iteration="2"]').waitFor({ timeout: 60_000 });
    const exit = await loop.exited;
    expect(exit.code, exit.stderr).toBe(0);
    await expect.poll(() => b.page.locator('#run-status').innerText(), { timeout: 10_000 }).toBe('completed');
    expect(await b.page.evaluate(() => (window as unknown as { __sameLoad?: number }).__sameLoad)).toBe(1);

    // The first generator that ran after the feedback was given read the train verdict, and only it.
    const generated = [1, 2]
      .map((n) => join(runDir(), `iter-00${n}/candidates.json`))
      .filter(existsSync)
      .map((f) => readJson(f))
      .filter((c) => c.created_at > given[1].created_at);
    expect(generated.length).toBeGreaterThan(0);
    const next = generated[0]!;
    expect(next.signals.human_feedback).toEqual([{ id: given[0].id, task_id: train, variant: 'baseline', rating: 'bad', comment: 'the breaking change is buried at the end' }]);
    expect(next.inputs.feedback).toMatch(/^sha256:/);
    expect(JSON.stringify(next)).not.toContain('held-out: must never reach the generator');
    // The offline feedback proposer acted on it: a rule for the train task's kind of request, or why not.
    const category = rows.find((r) => r.task_id === train)!.category as string;
    const acted = [...next.candidates, ...(next.skipped ?? [])].filter((c: { title: string }) => c.title === `Guidance for ${category.replace(/[-_.]+/g, ' ')} requests`);
    expect(acted.length, JSON.stringify(next.skipped)).toBeGreaterThan(0);
    const proposed = next.candidates.find((c: { title: string }) => c.title === acted[0].title);
    if (proposed) expect(proposed.rationale).toContain(`A person marked 1 train answer(s) in category "${category}" bad in whet view (${train})`);
    expect(JSON.stringify(next.candidates)).not.toContain('the breaking change is buried at the end');
    // What the run had written and registered before the feedback is unchanged by it.
    expect(sha(join(runDir(), 'iter-001/baseline.json'))).toBe(before.baseline);
    expect(JSON.stringify(readJson(join(runDir(), 'run.json')).settings)).toBe(before.settings);
    expect(b.consoleErrors).toEqual([]);
    expect(b.foreignRequests).toEqual([]);
  }, 150_000);
});
