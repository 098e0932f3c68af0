// `whet view` on a loop run against a noisy model (the simulated one of scripts/noisy-model.ts, as in
// test/integration/noisy-loop.test.ts): the run page shows the sequential test's plan — rounds, attempts
// per task, the effect with its interval, power and the calls saved — and a held-out task's outputs list
// the attempts of every round.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startNoisyModel, type NoisyModel } from '../../scripts/noisy-model.js';
import { tempDir, whet, write } from '../support/cli.js';
import { openBrowser, seriousViolations, startView, type Browser, type RunningView } from '../support/view.js';

const SKILL = `---\nname: answerer\ndescription: Answers short factual questions for the support team.\n---\n# Answerer\n\nAnswer the question the user asks.\n\n## Tone\nBe brief.\n`;

let model: NoisyModel;
let dir: string;
let view: RunningView;
let b: Browser;

beforeAll(async () => {
  model = await startNoisyModel({ seed: 11, baseline: SKILL, effect: 0.25 });
  dir = tempDir('whet-view-noisy-');
  write(join(dir, 'answerer/SKILL.md'), SKILL);
  const tasks = Array.from({ length: 40 }, (_, i) => `  - id: q-${String(i).padStart(2, '0')}\n    prompt: "Question number ${i}: what is the answer?"\n    category: ${i % 2 ? 'facts' : 'howto'}\n    split: ${i < 20 ? 'holdout' : 'train'}\n    judge: {type: contains, expected: ["ANSWER-OK"]}\n`);
  write(join(dir, 'answerer/tasks.yaml'), `skill_id: answerer\nversion: "1.0"\ntasks:\n${tasks.join('')}`);
  write(join(dir, 'pipeline.yaml'), `engine: {type: openai, model: sim, base_url: "${model.url}/v1", api_key_env: SIM_KEY}\nstate_dir: state\ntargets:\n  - skill: answerer\n    suite: answerer/tasks.yaml\nloop:\n  max_iterations: 1\n`);
  const r = await whet(['run'], { cwd: dir, env: { ...process.env, SIM_KEY: 'sk-loopback-sim' } });
  expect(r.code, r.stderr + r.stdout).toBe(0);
  view = await startView(dir);
  b = await openBrowser(() => view.origin);
}, 120_000);

afterAll(async () => {
  await b?.context.close();
  if (view) expect(await view.stop()).toBe(0);
  await model?.close();
});

describe('whet view on a noisy engine', () => {
  it('shows the sequential plan and power on the run page, and every round’s attempts of a held-out task', async () => {
    const runId = readdirSync(join(dir, 'state/runs'))[0]!;
    const iter = join(dir, 'state/runs', runId, 'iter-001');
    const seq = JSON.parse(readFileSync(join(iter, 'evaluation.json'), 'utf8')).evaluation.sequential;
    await b.page.goto(`${view.url}#/run/${runId}`);
    const plan = b.page.locator('section[data-iteration="1"] .plan');
    await plan.waitFor();
    const text = await plan.innerText();
    expect(text).toMatch(new RegExp(`^sequential test: keep after ${seq.rounds} round\\(s\\), ${seq.attempts} attempts per task; effect \\+0\\.\\d{4} \\[0\\.\\d{4}, 0\\.\\d{4}\\]; p = 0\\.\\d{4}; power `));
    expect(text).toContain(`${seq.calls.saved} calls saved`);
    expect(await b.page.locator('section[data-iteration="1"] .decision').innerText()).toMatch(/^keep — kept: better at significance 0\.05/);
    expect(await seriousViolations(b.page)).toEqual([]);

    await b.page.goto(`${view.url}#/run/${runId}/outputs/1/q-00`);
    const base = b.page.getByRole('region', { name: 'baseline' });
    await base.locator('.attempt').first().waitFor();
    // Every attempt the test bought: the first measurement's and each later round's.
    expect(await base.locator('.attempt').count()).toBe(seq.attempts);
    if (seq.rounds > 1) expect(await base.locator('.attempt p').last().innerText()).toMatch(new RegExp(`^round ${seq.rounds}, attempt `));
    expect(b.consoleErrors).toEqual([]);
  });
});
