// Issue 39 end to end: `whet nightly` over consecutive dated nights (an injected clock) against the loopback
// noisy model (scripts/noisy-model.ts) whose chances the test moves night by night. Unchanged nights raise
// no alert; a model losing 4 points a night is alerted within eight nights, each night held to the first
// night as its reference (drift.accumulated); --set-reference makes tonight the reference; the design's
// false alerts per 30 nights are stated by `whet plan --nightly`, the report and `whet nightly --help`.
// The rates over hundreds of sequences are test/unit/nightly-accumulate.test.ts's (decisions on coins).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startNoisyModel, type NoisyModel } from '../../scripts/noisy-model.js';
import { tempDir, whet, write } from '../support/cli.js';

const SKILL = '---\nname: answerer\ndescription: Answers questions.\n---\n# Answerer\nAnswer the question the user asks.\n';
let model: NoisyModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

function project(url: string): string {
  const dir = tempDir('whet-nights-');
  write(join(dir, 'answerer/SKILL.md'), SKILL);
  const tasks = Array.from({ length: 20 }, (_, i) => `  - {id: q-${String(i).padStart(2, '0')}, prompt: "Question number ${i}: what is the answer?", category: ${i % 2 ? 'facts' : 'howto'}, judge: {type: contains, expected: ["ANSWER-OK"]}}\n`);
  write(join(dir, 'answerer/tasks.yaml'), `skill_id: answerer\nversion: "1.0"\ntasks:\n${tasks.join('')}`);
  write(join(dir, 'pipeline.yaml'), `engine: {type: openai, model: sim, base_url: "${url}/v1", api_key_env: SIM_KEY}\nstate_dir: state\nevaluate: {concurrency: 8, max_attempts: 6}\ntargets: [{skill: answerer, suite: answerer/tasks.yaml}]\n`);
  return dir;
}

const env = { ...process.env, SIM_KEY: 'sk-loopback-sim' };
const night = (d: number) => () => new Date(Date.UTC(2026, 10, d, 3));
type Night = { alert: boolean; targets: { drift: { alert: boolean; reasons: string[]; accumulated: { reference: { file: string }; since: string; nights: number; statistic: number; alert: boolean } } }[] };

describe('whet nightly over a sequence of dated nights on a noisy model', () => {
  it('no alert while nothing changes; a steady loss is alerted against the reference night; --set-reference moves it', { timeout: 240_000 }, async () => {
    model = await startNoisyModel({ seed: 21, baseline: SKILL, effect: 0 });
    const dir = project(model.url);
    const run = async (d: number, extra: string[] = []) => {
      const r = await whet(['nightly', '--json', ...extra], { cwd: dir, env, now: night(d) });
      expect([0, 1], r.stderr).toContain(r.code);
      return JSON.parse(r.stdout) as Night;
    };
    const nights: Night[] = [];
    for (let d = 1; d <= 4; d++) nights.push(await run(d));
    expect(nights.map((n) => n.alert)).toEqual([false, false, false, false]);
    const first = nights[0]!.targets[0]!.drift.accumulated;
    expect(first).toMatchObject({ since: 'first night', nights: 0 });
    expect(nights[3]!.targets[0]!.drift.accumulated).toMatchObject({ reference: { file: first.reference.file }, nights: 3 });

    // From night 5 the model loses 4 points a night, behind the same config.
    let alertedOn: number | undefined;
    for (let k = 1; k <= 8 && alertedOn === undefined; k++) {
      model.shift(-0.04 * k);
      const n = await run(4 + k);
      const acc = n.targets[0]!.drift.accumulated;
      expect(acc.reference.file, 'the reference stays the first night').toBe(first.reference.file);
      expect(acc.nights).toBe(3 + k);
      if (n.alert) alertedOn = k;
    }
    expect(alertedOn, 'a steady loss is alerted within eight nights').toBeDefined();

    // The report states the design's false alerts per 30 nights, and where the accumulation stands.
    const md = readFileSync(join(dir, 'state/nightly', `2026-11-${String(4 + alertedOn!).padStart(2, '0')}.md`), 'utf8');
    expect(md).toMatch(/The design: expected false alerts with nothing changed: at most 0\.6 per 30 nights per target/);
    expect(md).toMatch(/against the reference night 2026-11-01 \(/);

    // Set on purpose, tonight is the reference the next nights are held to.
    const set = await run(4 + alertedOn! + 1, ['--set-reference']);
    expect(set.targets[0]!.drift.accumulated).toMatchObject({ since: 'set', nights: 0, statistic: 0 });
    const after = await run(4 + alertedOn! + 2);
    expect(after.targets[0]!.drift.accumulated).toMatchObject({ since: 'set', nights: 1, reference: { file: set.targets[0]!.drift.accumulated.reference.file } });

    const plan = await whet(['plan', '--nightly'], { cwd: dir, env });
    expect(plan.stdout).toMatch(/at most 0\.6 per 30 nights per target/);
    const help = await whet(['nightly', '--help'], { cwd: dir, env });
    expect(help.stdout).toMatch(/at most 0\.6 per 30 nights per target/);
  });
});
