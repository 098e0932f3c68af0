// The description loop on a trigger eval set: the llm proposer edits the frontmatter description, the
// candidate is measured through claude's installed mode (the fake CLI triggers on words the prompt shares
// with the description), and the held-out gate decides. A description that takes the missed requests is
// kept; one that makes a held-out negative trigger is rejected and the skill is left as it was.
import { describe, expect, it } from 'vitest';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesBin, repoRoot, tempDir, whet, write } from '../support/cli.js';

const fixtures = join(repoRoot, 'test/fixtures/trigger-sets');
const ORIGINAL = 'Writes release notes from merged pull requests.';

function project(evaluate = '{deterministic: true}'): string {
  const dir = tempDir();
  cpSync(join(fixtures, 'notes/SKILL.md'), join(dir, 'notes/SKILL.md'));
  cpSync(join(fixtures, 'loop/trigger_evals.json'), join(dir, 'notes/evals/trigger_evals.json'));
  const gen = join(fixtures, 'loop/generator.mjs');
  write(
    join(dir, 'pipeline.yaml'),
    'state_dir: state\nengine: {type: claude, mode: installed}\ntargets: [{skill: notes, suite: notes/evals/trigger_evals.json}]\n' +
      `loop: {max_iterations: 1, proposers: [llm], generator_engine: {type: command, command: ["${process.execPath}", "${gen}"]}}\n` +
      // The fake CLI answers the same way every time: one attempt per query decides (no noisy rounds, issue 27).
      `evaluate: ${evaluate}\n`,
  );
  return dir;
}

const run = (dir: string, description: string, answers: string) =>
  whet(['run'], { cwd: dir, env: { ...process.env, PATH: `${fixturesBin}:${process.env.PATH}`, FAKE_CLAUDE_MODE: 'stream_by_description', GEN_DESCRIPTION: description, GEN_ANSWERS: answers } });

const descriptionOf = (dir: string) => /^description: (.*)$/m.exec(readFileSync(join(dir, 'notes/SKILL.md'), 'utf8'))?.[1];

describe('description loop on a trigger eval set', () => {
  it('tests a description that makes the skill take the requests it missed on the held-out queries: too few to keep it', async () => {
    // One held-out should-not query bounds no false-trigger rate (its 95% bound is 1): this test is about
    // the triggering side, so the false-trigger bar is set to 1; a later test holds a candidate to it.
    const dir = project('{deterministic: true, max_false_trigger_rate: 1}');
    const better = `${ORIGINAL} Use it for a changelog or for what shipped in a version.`;
    const r = await run(dir, better, 'trigger-t2,trigger-t3');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/baseline pass rate 0\.5000 \(4\/8\)/);
    // Better on every held-out query it could be (2 fixed, none regressed), but 3 held-out queries cannot
    // show it: every keep is tested (issue 38), and the one-sided sign test needs 5 fixed at 0.05.
    expect(r.stdout).toMatch(/gate: REJECT cand-01-say-when-to-use-it — .*one-sided exact sign test on held-out tasks: 2 fixed, 0 regressed, p = 0\.25 > 0\.05; .*\(at least 5 fixed held-out tasks with none regressed could pass\)/);
    expect(descriptionOf(dir)).toBe(ORIGINAL);
    // Decided as a trigger suite too: the held-out rates against evaluate.min_trigger_rate / max_false_trigger_rate.
    expect(r.stdout).toMatch(/\[ok\] min_trigger_rate: held-out trigger rate 1\.0000 \[[\d.]+, [\d.]+\] ≥ 0\.5 \(\d+\/\d+ should-trigger runs\)/);
    expect(r.stdout).toMatch(/\[ok\] max_false_trigger_rate: held-out false-trigger rate 0\.0000, its 95% upper bound 1\.0000 clustered by query ≤ 1 \(1 should-not-trigger queries, \d+ runs\)/);
    // The report gives the four trigger metrics for each measurement of the loop: baseline and candidate.
    const md = (await whet(['report'], { cwd: dir, env: process.env })).stdout;
    expect(md).toContain('## Triggering');
    expect(md).toMatch(/\| iter 1 baseline \| \d\.\d{4} \(\d+\/\d+\) \| \[/);
    expect(md).toMatch(/\| iter 1 candidate cand-01-say-when-to-use-it \| \d\.\d{4} \(\d+\/\d+\) \| \[0\.\d\d, \d\.\d\d\] \| \d\.\d{4} \(\d+\/\d+\) \|/);
  });

  it('rejects a description that makes a held-out negative trigger, and leaves SKILL.md alone', async () => {
    const dir = project();
    const before = readFileSync(join(dir, 'notes/SKILL.md'), 'utf8');
    const r = await run(dir, `${ORIGINAL} Also for shipped versions and flaky tests.`, 'trigger-t2');
    // Better on train (it takes "what shipped"), but the held-out negative "fix the flaky test" now triggers it.
    expect(r.stdout).toMatch(/evaluated cand-01-say-when-to-use-it: 0\.6250 vs baseline 0\.5000/);
    expect(r.stdout).toMatch(/gate: REJECT cand-01-say-when-to-use-it — held-out delta \+0\.0000 .*1 task\(s\) that passed on the baseline now fail \(trigger-h3\)/);
    expect(r.stdout).toContain('[NO] max_false_trigger_rate: held-out false-trigger rate 1.0000, its 95% upper bound 1.0000 clustered by query > 0.2 (1 should-not-trigger queries, 1 runs)');
    expect(readFileSync(join(dir, 'notes/SKILL.md'), 'utf8')).toBe(before);
  });

  it('on an engine declared noisy, the trigger checks count every attempt the rounds made, not the first measurement alone', async () => {
    // The fake CLI still answers the same way every time, but declared noisy (not auto) the rounds go on
    // until the sequential test decides: each held-out query is asked again each round.
    const dir = project('{deterministic: false, max_attempts: 4}');
    const r = await run(dir, `${ORIGINAL} Use it for a changelog or for what shipped in a version.`, 'trigger-t2,trigger-t3');
    expect(r.code, r.stderr).toBe(0);
    const e = JSON.parse(readFileSync(join(dir, 'state/runs', readdirSync(join(dir, 'state/runs'))[0]!, 'iter-001/evaluation.json'), 'utf8')) as {
      evaluation: { sequential: { attempts: number }; candidate: { trigger: { should: number }; holdout_trigger: { should: number; triggered: number; should_not: number } } };
    };
    const attempts = e.evaluation.sequential.attempts;
    expect(attempts).toBeGreaterThan(1);
    // Two held-out should-trigger queries asked once per round; the should-not one, which never triggered on
    // either side, stops after three attempts each (every attempt passed: no information left in it, issue 38).
    expect(e.evaluation.candidate.holdout_trigger).toMatchObject({ should: 2 * attempts, triggered: 2 * attempts, should_not: Math.min(attempts, 3) });
    expect(r.stdout).toContain(`min_trigger_rate: held-out trigger rate 1.0000`);
    expect(r.stdout).toMatch(new RegExp(`\\(${2 * attempts}/${2 * attempts} should-trigger runs\\)`));
  });

  it("holds the candidate to pipeline.yaml's own trigger bars, registered with the run", async () => {
    const dir = project('{deterministic: true, min_trigger_rate: 0.75, max_false_trigger_rate: 0.25}');
    const r = await run(dir, `${ORIGINAL} Use it for a changelog or for what shipped in a version.`, 'trigger-t2,trigger-t3');
    expect(r.code, r.stderr).toBe(0);
    const runDir = join(dir, 'state/runs', readdirSync(join(dir, 'state/runs'))[0]!);
    const gate = JSON.parse(readFileSync(join(runDir, 'iter-001/gate.json'), 'utf8')) as { checks: { id: string; passed: boolean; detail: string }[] };
    const check = (id: string) => gate.checks.find((c) => c.id === id);
    expect(check('min_trigger_rate')).toMatchObject({ passed: true, detail: expect.stringMatching(/^held-out trigger rate 1\.0000 .* ≥ 0\.75 /) });
    // The registered bar, held to the bound: no false trigger on the one held-out should-not query, which bounds nothing.
    expect(check('max_false_trigger_rate')).toMatchObject({ passed: false, detail: expect.stringMatching(/^held-out false-trigger rate 0\.0000, its 95% upper bound 1\.0000 clustered by query > 0\.25 \(1 should-not-trigger queries/) });
    expect(r.stdout).toMatch(/\[ok\] min_trigger_rate: .* ≥ 0\.75/);
    // Fixed before results: the run registered the bars it was decided on.
    expect(readFileSync(join(runDir, 'run.json'), 'utf8')).toMatch(/"min_trigger_rate": 0\.75[\s\S]*"max_false_trigger_rate": 0\.25/);
  });
});
