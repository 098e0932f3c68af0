// Subscription rate limits in real time, against the fake `claude` on PATH (test/fixtures/bin/claude,
// whose header cites the rate_limit_event and usage-limit shapes): a limit that resets 3 s ahead pauses
// the run — `whet status` says so while it waits — and the run completes with no task errored; with a
// maximum wait below the reset the run stops as `rate_limited`, and `whet resume` completes it later.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixturesBin, readJson, tempDir, whet, write } from '../support/cli.js';

function project(engineExtra = ''): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '---\nname: notes\ndescription: Writes release notes. Use when asked for release notes.\n---\n# Notes\n\nWrite the notes.\n');
  write(
    join(dir, 'skill/tasks.yaml'),
    'skill_id: notes\nversion: "1.0"\ntasks:\n' + ['a', 'b', 'c', 'd'].map((t) => `  - {id: ${t}, prompt: "release notes ${t}", judge: {type: regex, pattern: "fake"}}\n`).join(''),
  );
  write(
    join(dir, 'pipeline.yaml'),
    `state_dir: state
engine: {type: claude, mode: installed${engineExtra}}
targets: [{skill: skill, suite: skill/tasks.yaml}]
evaluate: {concurrency: 2}
loop: {max_iterations: 1, candidates_per_iteration: 1, proposers: [structural]}
thresholds: {min_delta: 0, max_new_failures: 0}
`,
  );
  return dir;
}

// The limit starts at the fake's first call and resets 3 s later (FAKE_CLAUDE_LIMIT_SECONDS), however
// long the run took to get there on a loaded machine; the reset it chose is read back from its state file.
const envFor = (dir: string) => ({
  ...process.env,
  PATH: `${fixturesBin}:${process.env.PATH}`,
  FAKE_CLAUDE_MODE: 'stream',
  FAKE_CLAUDE_LOG: join(dir, 'claude.log'),
  FAKE_CLAUDE_LIMIT_SECONDS: '3',
  FAKE_CLAUDE_LIMIT_STATE: join(dir, 'limit-until'),
});
const untilOf = (dir: string) => Number(readFileSync(join(dir, 'limit-until'), 'utf8'));
const calls = (dir: string) => readFileSync(join(dir, 'claude.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { limited?: boolean });
const events = (runDir: string) => readFileSync(join(runDir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; resets_at?: string });

describe('subscription rate limits (claude, real time)', () => {
  it('pauses new work until a reset 3 s ahead, says so on stderr and in whet status, and completes with no task errored', async () => {
    const dir = project();
    const running = whet(['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--json', '--force'], { cwd: dir, env: envFor(dir) });
    // While the run waits, whet status names the pause and when it ends.
    let status = '';
    for (let i = 0; i < 200 && !/paused on a claude rate limit/.test(status); i++) {
      await sleep(100);
      status = (await whet(['status'], { cwd: dir })).stdout;
    }
    const until = untilOf(dir);
    expect(status).toMatch(new RegExp(`paused on a claude rate limit; resumes at ${new Date(until * 1000).toISOString().slice(0, 19)}`));
    const r = await running;
    expect(r.code, r.stderr).toBe(0);
    // The run outlasted the limit: it ended after the reset.
    expect(Date.now()).toBeGreaterThanOrEqual(until * 1000);
    expect(r.stderr).toMatch(/five_hour rate limit reached; pausing new work until .* then continuing/);
    expect(r.stderr).toMatch(/rate limit reset; new work starts again/);
    const out = JSON.parse(r.stdout);
    expect(out.evaluation).toMatchObject({ passed: 4, failed: 0, errors: 0 });
    // The calls refused by the limit were the ones in flight when it hit (concurrency 2); each ran again.
    const log = calls(dir);
    const refused = log.filter((c) => c.limited).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(refused).toBeLessThanOrEqual(2);
    expect(log.length).toBe(4 + refused);
    const runDir = join(dir, 'state/runs', out.run_id);
    const kinds = events(runDir).map((e) => e.event);
    expect(kinds).toContain('rate_limit_paused');
    expect(kinds).toContain('rate_limit_resumed');
    expect(readJson(join(runDir, 'run.json')).status).toBe('completed');
    expect((await whet(['status'], { cwd: dir })).stdout).not.toMatch(/paused on a claude rate limit/);
  }, 60_000);

  it('stops as rate_limited when the reset is beyond rate_limit_max_wait_seconds, and whet resume completes the run', async () => {
    const dir = project(', rate_limit_max_wait_seconds: 1');
    const env = envFor(dir);
    const first = await whet(['run'], { cwd: dir, env });
    const until = untilOf(dir);
    expect(first.code, first.stderr).toBe(1);
    expect(first.stdout).toMatch(/run rate_limited: claude: five_hour rate limit reached .*beyond rate_limit_max_wait_seconds \(1 s\); once it resets, continue with: whet resume/);
    const runId = JSON.parse((await whet(['status', '--json'], { cwd: dir })).stdout)[0].run_id as string;
    const runDir = join(dir, 'state/runs', runId);
    expect(readJson(join(runDir, 'run.json')).status).toBe('rate_limited');
    expect((await whet(['status'], { cwd: dir })).stdout).toMatch(/stopped by a claude rate limit \(resets at .*\); continue with "whet resume /);
    // No result was recorded for the refused attempts: nothing counts as a task error.
    expect(readFileSync(join(runDir, 'iter-001/results/baseline.jsonl'), 'utf8').trim()).toBe('');
    await sleep(Math.max(0, until * 1000 - Date.now() + 300));
    const resumed = await whet(['resume', runId], { cwd: dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/run done/);
    const manifest = readJson(join(runDir, 'run.json'));
    expect(manifest.status).toBe('completed');
    const baseline = readJson(join(runDir, 'iter-001/baseline.json'));
    expect(baseline.evaluation).toMatchObject({ passed: 4, errors: 0 });
    expect((await whet(['status'], { cwd: dir })).stdout).not.toMatch(/stopped by a claude rate limit/);
  }, 90_000);

  it('a limit lifted 2 s after the reset it named: one more pause, then the run completes with no task errored', async () => {
    const dir = project(', rate_limit_max_wait_seconds: 3');
    const env = { ...envFor(dir), FAKE_CLAUDE_LIMIT_SECONDS: '2', FAKE_CLAUDE_LIMIT_LATE_SECONDS: '2' };
    const r = await whet(['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--json', '--force'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/already passed; pausing new work for 3 s, then trying again/);
    expect(JSON.parse(r.stdout).evaluation).toMatchObject({ passed: 4, failed: 0, errors: 0 });
    // It ran after the limit really lifted (2 s past the reset it named).
    const log = calls(dir);
    expect(log.filter((c) => !c.limited)).toHaveLength(4);
    expect(Date.now()).toBeGreaterThanOrEqual((untilOf(dir) + 2) * 1000);
  }, 60_000);

  it('a limit that still holds after the reset it named pauses as long as the maximum wait allows, then stops the run instead of calling claude in a loop', async () => {
    // The reset comes 2 s after the first call, but the limit lasts an hour past it (this machine's clock
    // ahead of the provider's): every later refusal names a reset this clock has already passed.
    const dir = project(', rate_limit_max_wait_seconds: 3');
    const env = { ...envFor(dir), FAKE_CLAUDE_LIMIT_SECONDS: '2', FAKE_CLAUDE_LIMIT_LATE_SECONDS: '3600' };
    const started = Date.now();
    const r = await whet(['run'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/five_hour rate limit reached; it said it resets at .*already passed; pausing new work for 3 s, then trying again/);
    expect(r.stdout).toMatch(/run rate_limited: claude: five_hour rate limit reached .*already passed; the limit still held after 1 pause\(s\), 3 s in all, as long as rate_limit_max_wait_seconds \(3 s\) allows: is the clock right\?/);
    // The reset (2 s + 1 s margin), a pause of the 3 s the maximum wait allows, then the stop: seconds, not
    // the hour the limit lasts.
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(5_000);
    expect(elapsed).toBeLessThan(30_000);
    // At concurrency 2: the two calls in flight, each run again after the reset and after the pause.
    const log = calls(dir);
    expect(log.every((c) => c.limited)).toBe(true);
    expect(log.length).toBeGreaterThanOrEqual(3);
    expect(log.length).toBeLessThanOrEqual(6);
    const runId = JSON.parse((await whet(['status', '--json'], { cwd: dir })).stdout)[0].run_id as string;
    expect(readJson(join(dir, 'state/runs', runId, 'run.json')).status).toBe('rate_limited');
  }, 60_000);
});
