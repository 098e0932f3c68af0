// `whet view` on the demo's project (the release-notes loop on the mock engine: a keep, then a reject) in
// headless Chromium, as a person uses it: the runs list, the run with both decisions and the diff, the
// outputs side by side (filters, keyboard, one task's attempts and judges), feedback saved as an artifact
// and exported as skill-creator's feedback.json, a damaged artifact shown as an error on its own section —
// with no console error, no request beyond the viewer, and no serious or critical axe-core violation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { exampleLoopProject, readJson, whet } from '../support/cli.js';
import { openBrowser, seriousViolations, startView, type Browser, type RunningView } from '../support/view.js';

let dir: string;
let runId: string;
let view: RunningView;
let b: Browser;

beforeAll(async () => {
  dir = exampleLoopProject({
    prefix: 'whet-view-',
    loop: '{max_iterations: 4, plateau_window: 2, candidates_per_iteration: 3, proposers: [feedback, structural]}',
    thresholds: '{min_delta: 0, max_new_failures: 0, significance: 0.05}',
  });
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  runId = readdirSync(join(dir, 'state/runs'))[0]!;
  view = await startView(dir);
  b = await openBrowser(() => view.origin);
}, 90_000);

afterAll(async () => {
  await b?.context.close();
  if (view) expect(await view.stop()).toBe(0);
});

describe('whet view in headless Chromium', () => {
  it('prints one loopback URL with a token, read-only by default', () => {
    expect(view.output()).toMatch(/^whet view: .*state \(read-only\)\n  http:\/\/127\.0\.0\.1:\d+\/\?session=[0-9a-f]{64}\nCtrl-C to stop\n$/);
  });

  it('lists the run with its decisions, calls and status, and passes axe-core', async () => {
    await b.page.goto(view.url);
    const row = b.page.locator(`tr[data-run="${runId}"]`);
    await expect.poll(() => row.count()).toBe(1);
    const text = await row.innerText();
    expect(text).toContain('completed');
    expect(text).toContain('1:keep, 2:reject');
    // The engine on every run, the mock in its own words and colour (issue 41).
    const badge = row.locator('.engine');
    expect(await badge.innerText()).toBe('mock engine');
    expect(await badge.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(91, 42, 134)');
    // Decisions coloured by verdict, and told apart by word and symbol too, never by colour alone.
    const keep = row.locator('.verdict', { hasText: '1:keep' });
    const reject = row.locator('.verdict', { hasText: '2:reject' });
    const look = (l: typeof keep) => l.evaluate((e) => [getComputedStyle(e).color, getComputedStyle(e, '::before').content]);
    expect(await look(keep)).toEqual(['rgb(11, 107, 46)', '"✓"']);
    expect(await look(reject)).toEqual(['rgb(164, 22, 26)', '"✗"']);
    expect(await seriousViolations(b.page)).toEqual([]);
    // The check can fail: an image with no text alternative is a critical violation axe-core reports.
    await b.page.evaluate(() => document.querySelector('main')!.append(Object.assign(document.createElement('img'), { id: 'no-alt', src: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' })));
    expect(await seriousViolations(b.page)).toEqual([expect.stringMatching(/^image-alt \(critical\): #no-alt/)]);
    await b.page.evaluate(() => document.getElementById('no-alt')!.remove());
  });

  it('shows a run: the gate decision first with its checks, the discriminator, the diff, intervals per category and split', async () => {
    await b.page.getByRole('link', { name: runId }).click();
    await b.page.getByRole('heading', { name: `Run ${runId}` }).waitFor();
    const it1 = b.page.locator('section[data-iteration="1"]');
    const it2 = b.page.locator('section[data-iteration="2"]');
    expect(await it1.locator('.decision').innerText()).toMatch(/^keep — held-out gain/);
    expect(await it2.locator('.decision').innerText()).toMatch(/^reject — /);
    // The decision comes before the checks, which are a list read top down.
    expect(await it1.locator('h3').first().innerText()).toBe('Gate');
    expect(await it1.locator('ol.checks li').count()).toBeGreaterThan(5);
    const diff = await it1.locator('pre.diff').first().innerText();
    expect(diff).toContain('+## Release notes requests involving breaking changes');
    expect(await it1.locator('.score').first().innerText()).toMatch(/discriminator: score [\d.]+ → /);
    // Rates worded as the CLI words them: "0.5000 [0.19, 0.81]" (assets/view/format.js).
    const ev = await it1.locator('table').filter({ hasText: /^By split/ }).innerText();
    expect(ev).toMatch(/holdout\s+[01]\.\d{4} \[[01]\.\d{2}, [01]\.\d{2}\]/);
    expect(ev).not.toMatch(/\d\.\d%/);
    // The engine badge on the run's own page; every candidate folded but the one the gate decided on.
    expect(await b.page.locator('main .engine').first().innerText()).toBe('mock engine');
    const gate1 = readJson(join(dir, 'state/runs', runId, 'iter-001/gate.json'));
    const cands = it1.locator('details.candidate');
    expect(await cands.count()).toBeGreaterThan(1);
    expect(await it1.locator('details.candidate[open]').evaluateAll((els) => els.map((e) => e.getAttribute('data-candidate')))).toEqual([gate1.candidate_id]);
    expect(await it1.locator('.decision').evaluate((e) => e.className)).toBe('decision v-keep');
    expect(await it2.locator('.decision').evaluate((e) => e.className)).toBe('decision v-reject');
    expect(await it1.locator('table').filter({ hasText: /^By category/ }).innerText()).toContain('breaking-changes');
    expect(await it1.locator('.paired').innerText()).toMatch(/^paired \(.*\) over 10 tasks/);
    expect(await seriousViolations(b.page)).toEqual([]);
  });

  it('outputs side by side: filters, keyboard navigation, every attempt with its judges, the prompt', async () => {
    await b.page.locator('section[data-iteration="1"] a.outputs-link').click();
    await b.page.getByRole('heading', { name: 'Outputs — iteration 1' }).waitFor();
    const count = b.page.locator('#shown-count');
    await expect.poll(() => count.innerText()).toBe('10 of 10 tasks');
    await b.page.getByLabel('Status').selectOption('fixed');
    const ev = readJson(join(dir, 'state/runs', runId, 'iter-001/evaluation.json'));
    const fixed: string[] = ev.evaluation.paired.fixes;
    expect(fixed.length).toBeGreaterThan(0);
    await expect.poll(() => count.innerText()).toBe(`${fixed.length} of 10 tasks`);
    expect(await b.page.locator('.vrow[data-task]').evaluateAll((els) => els.map((e) => e.getAttribute('data-task')))).toEqual(expect.arrayContaining(fixed));
    await b.page.getByLabel('Status').selectOption('');
    await b.page.getByLabel('Split').selectOption('holdout');
    await expect.poll(() => count.innerText()).toBe('5 of 10 tasks');
    await b.page.getByLabel('Split').selectOption('');
    // Keyboard: focus the table, down twice, Enter opens the third task.
    await b.page.locator('#task-table').focus();
    for (const k of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'Enter']) await b.page.keyboard.press(k);
    const third = ev.candidate_results[2].task_id as string;
    await b.page.getByRole('heading', { name: `Task ${third}` }).waitFor();
    expect(b.page.url()).toContain(`/outputs/1/${third}`);
    const detail = b.page.locator('.detail');
    const suite = parseYaml(readFileSync(join(dir, 'release-notes/tasks.yaml'), 'utf8')) as { tasks: { id: string; prompt: string }[] };
    expect(await detail.locator('pre.prompt').innerText()).toBe(suite.tasks.find((t) => t.id === third)!.prompt.trimEnd());
    const sides = detail.locator('section.variant');
    expect(await sides.count()).toBe(2);
    expect(await sides.nth(0).locator('h3').innerText()).toBe('Baseline');
    expect(await sides.nth(1).locator('h3').innerText()).toBe(`Candidate ${ev.candidate_id}`);
    const line = JSON.parse(readFileSync(join(dir, 'state/runs', runId, 'iter-001/results/baseline.jsonl'), 'utf8').split('\n').find((l) => l.includes(`"task_id":"${third}"`))!);
    expect(await sides.nth(0).locator('pre.output').innerText()).toBe(line.output);
    expect(await sides.nth(0).locator('ul.judges li').first().innerText()).toContain(line.judges[0].reason);
    // n: the next task, without the mouse.
    await b.page.locator('h1').click();
    await b.page.keyboard.press('n');
    await b.page.getByRole('heading', { name: `Task ${ev.candidate_results[3].task_id}` }).waitFor();
    expect(await seriousViolations(b.page)).toEqual([]);
  });

  it('saves feedback as a schema-valid artifact, shows it again, and exports skill-creator feedback.json', async () => {
    const ev = readJson(join(dir, 'state/runs', runId, 'iter-001/evaluation.json'));
    const task = ev.candidate_results.find((r: { split: string }) => r.split === 'train').task_id as string;
    await b.page.goto(`${view.url}#/run/${runId}/outputs/1/${task}`);
    await b.page.getByRole('heading', { name: `Task ${task}` }).waitFor();
    const cand = b.page.getByRole('group', { name: `feedback on the ${ev.candidate_id} answer` });
    await cand.getByRole('button', { name: 'Bad' }).click();
    await cand.getByLabel(`comment on the ${ev.candidate_id} answer`).fill('buries the breaking change under minor fixes');
    await cand.getByRole('button', { name: 'Save feedback' }).click();
    await expect.poll(() => cand.getByRole('status').innerText()).toBe('saved: bad');
    const lines = readFileSync(join(dir, 'state/memory/feedback.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ schema: 'whetstone.feedback/1', run_id: runId, iteration: 1, task_id: task, variant: ev.candidate_id, rating: 'bad', split: 'train', comment: 'buries the breaking change under minor fixes' })]);
    // Valid against the schema `whet schemas` publishes.
    const schemas = JSON.parse((await whet(['schemas'], { cwd: dir })).stdout);
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    expect(ajv.validate(schemas.feedback, lines[0]), JSON.stringify(ajv.errors)).toBe(true);
    // Shown next time the task is opened.
    await b.page.reload();
    await b.page.getByRole('heading', { name: `Task ${task}` }).waitFor();
    const again = b.page.getByRole('group', { name: `feedback on the ${ev.candidate_id} answer` });
    expect(await again.getByRole('status').innerText()).toBe('saved: bad');
    expect(await again.getByRole('textbox').inputValue()).toBe('buries the breaking change under minor fixes');
    expect(await again.getByRole('button', { name: 'Bad' }).getAttribute('aria-pressed')).toBe('true');
    // skill-creator's feedback.json (skill-creator/SKILL.md, "Read the feedback"): {reviews: [{run_id, feedback, timestamp}], status}.
    const exported = await b.page.evaluate(async (href) => (await fetch(href)).json(), (await b.page.getByRole('link', { name: 'export feedback.json' }).getAttribute('href'))!);
    const skillCreatorFeedback = {
      type: 'object',
      required: ['reviews', 'status'],
      additionalProperties: false,
      properties: {
        reviews: { type: 'array', items: { type: 'object', required: ['run_id', 'feedback', 'timestamp'], additionalProperties: false, properties: { run_id: { type: 'string', pattern: '^eval-\\d+-(with_skill|without_skill|new_skill|old_skill)(-run-\\d+)?$' }, feedback: { type: 'string' }, timestamp: { type: 'string', format: 'date-time' } } } },
        status: { enum: ['complete', 'in_progress'] },
      },
    };
    expect(ajv.validate(skillCreatorFeedback, exported), JSON.stringify(ajv.errors)).toBe(true);
    const index = ev.candidate_results.findIndex((r: { task_id: string }) => r.task_id === task);
    // The candidate beside the current skill: skill-creator's new_skill (src/config/skill-creator-dirs.ts).
    expect(exported).toEqual({ reviews: [{ run_id: `eval-${index}-new_skill${lines[0].attempt === null ? '' : `-run-${lines[0].attempt + 1}`}`, feedback: 'bad: buries the breaking change under minor fixes', timestamp: lines[0].created_at }], status: 'complete' });
  });

  it('shows a half-written artifact as an error on its own section, and the rest of the run as before', async () => {
    const gate = join(dir, 'state/runs', runId, 'iter-002/gate.json');
    const text = readFileSync(gate, 'utf8');
    writeFileSync(gate, text.slice(0, Math.floor(text.length / 2)));
    try {
      await b.page.goto(`${view.url}#/run/${runId}`);
      const it2 = b.page.locator('section[data-iteration="2"]');
      await it2.locator('.problem').first().waitFor();
      expect(await it2.locator('.problem').first().innerText()).toMatch(/^iter-002\/gate\.json: iteration 2's gate\.json is not valid JSON \(it ends early: cut short\)/);
      expect(await it2.locator('pre.diff').count()).toBeGreaterThan(0);
      expect(await b.page.locator('section[data-iteration="1"] .decision').innerText()).toMatch(/^keep/);
      await b.page.goto(view.url);
      await expect.poll(() => b.page.locator(`tr[data-run="${runId}"]`).count()).toBe(1);
    } finally {
      writeFileSync(gate, text);
    }
    // Edited by hand (valid JSON, another decision): an error on its section, never the edited decision.
    writeFileSync(gate, text.replace('"decision": "reject"', '"decision": "keep"'));
    try {
      await b.page.goto(`${view.url}#/run/${runId}`);
      const it2 = b.page.locator('section[data-iteration="2"]');
      await it2.locator('.problem').first().waitFor();
      expect(await it2.locator('.problem').first().innerText()).toMatch(/^iter-002\/gate\.json: .*changed after whetstone wrote it/);
      expect(await it2.locator('.decision').count()).toBe(0);
    } finally {
      writeFileSync(gate, text);
    }
    // An evaluation.json edited by hand: the outputs page shows none of its values, and says why.
    const evFile = join(dir, 'state/runs', runId, 'iter-001/evaluation.json');
    const evText = readFileSync(evFile, 'utf8');
    writeFileSync(evFile, evText.replace('"status": "fail"', '"status": "pass"'));
    try {
      const session = new URL(view.url).search;
      const table = (await (await fetch(new URL(`/api/runs/${runId}/iterations/1/outputs${session}`, view.url))).json()) as { rows: string[][]; error?: string };
      // The intact baseline.json's rows only: no candidate status from the edited file.
      expect(table.rows.length).toBeGreaterThan(0);
      expect(table.rows.every((r) => r[4] === '')).toBe(true);
      expect(table.error).toMatch(/^iter-001\/evaluation\.json: .*changed after whetstone wrote it/);
    } finally {
      writeFileSync(evFile, evText);
    }
    // A run.json cut short: the run stays listed, with what is wrong, and its page says the same.
    const manifest = join(dir, 'state/runs', runId, 'run.json');
    const m = readFileSync(manifest, 'utf8');
    writeFileSync(manifest, m.slice(0, 100));
    try {
      await b.page.goto(`${view.url}#/`);
      const row = b.page.locator(`tr[data-run="${runId}"]`);
      await row.locator('.problem').waitFor();
      // Named as `whet status` names it (the one check of src/inspect/verify-run.ts).
      expect(await row.locator('.run-status').innerText()).toBe('damaged');
      expect(await row.locator('.problem').first().innerText()).toMatch(/runs\/.+\/run\.json: run\.json is not valid JSON \(it ends early: cut short\)/);
      await row.getByRole('link', { name: runId }).click();
      await b.page.locator('.problem').first().waitFor();
      expect(await b.page.locator('.problem').first().innerText()).toMatch(/run\.json(?: cannot be read|: run\.json is not valid JSON)/);
      expect(await b.page.locator('section[data-iteration="1"] .decision').innerText()).toMatch(/^keep/);
    } finally {
      writeFileSync(manifest, m);
    }
  });

  it('asked nothing of any other host and logged no console error', () => {
    expect(b.foreignRequests).toEqual([]);
    expect(b.consoleErrors).toEqual([]);
  });
});
