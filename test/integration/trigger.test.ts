import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { fixturesBin, tempDir, whet, write } from '../support/cli.js';

function project(engine: string): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '---\nname: notes\ndescription: Writes release notes. Use when asked for release notes.\n---\n# Notes\n');
  write(
    join(dir, 'skill/tasks.yaml'),
    'skill_id: notes\nversion: "1.0"\ntasks:\n' +
      '  - {id: t1, prompt: "release notes please", should_trigger: true, judge: {type: regex, pattern: "."}}\n' +
      '  - {id: t2, prompt: "changelog for v2", should_trigger: true, judge: {type: regex, pattern: "."}}\n' +
      '  - {id: n1, prompt: "what time is it", negative: true, should_trigger: false, judge: {type: regex, pattern: "."}}\n',
  );
  write(join(dir, 'pipeline.yaml'), `engine: ${engine}\n`);
  return dir;
}

const args = ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--json', '--force'];
const env = (mode: string) => ({ ...process.env, PATH: `${fixturesBin}:${process.env.PATH}`, FAKE_CLAUDE_MODE: mode });

describe('skill triggering (claude, installed mode)', () => {
  it('measures the trigger rate and false triggers of negative controls', async () => {
    const dir = project('{type: claude, mode: installed}');
    const always = JSON.parse((await whet(args, { cwd: dir, env: env('stream') })).stdout);
    expect(always.evaluation.trigger).toEqual({
      trigger_rate: 1,
      triggered: 2,
      should: 2,
      false_trigger_rate: 1,
      false_triggered: 1,
      should_not: 1,
      trigger_rate_ci95: { low: 0.3424, high: 1 },
      false_trigger_rate_ci95: { low: 0.2065, high: 1 },
      recall: 1,
      precision: 0.6667,
      precision_ci95: { low: 0.2077, high: 0.9385 },
    });
    expect(always.task_results.find((t: any) => t.task_id === 'n1')).toMatchObject({ passed: false, reason: expect.stringMatching(/trigger: skill triggered; should not trigger/) });
    const never = JSON.parse((await whet(args, { cwd: dir, env: env('stream_no_trigger') })).stdout);
    expect(never.evaluation.trigger).toMatchObject({ trigger_rate: 0, false_trigger_rate: 0 });
    expect(never.evaluation).toMatchObject({ passed: 1, failed: 2 });
  });

  it('refuses should_trigger tasks on an engine that cannot tell, before its first call (issue 28)', async () => {
    const dir = project(`{type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}`);
    const r = await whet(args, { cwd: dir });
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toMatch(/claude|codex/);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });
});
