// Codex's native skills (skill_delivery: installed) against the fake `codex` (test/fixtures/bin/codex,
// whose header cites the loader, the skills section and the event shapes): the skill folder placed where
// Codex discovers repository skills, a read of its SKILL.md reported as skill_triggered, trigger and
// false-trigger rates measured through `whet evaluate` like claude's installed mode, and 429s retried.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';

import type { CodexEngineConfig } from '../../src/config/engine-schema.js';
import { createCodexEngine } from '../../src/engines/codex.js';
import type { EngineRequest } from '../../src/engines/types.js';
import { fixturesBin, tempDir, whet, write } from '../support/cli.js';

interface LogEntry {
  argv: string[];
  cwd: string;
  files: string[];
  agents_md: string | null;
  stdin: string;
  skills: { name: string; scope: string; path: string }[];
}

const skillText = '---\nname: notes\ndescription: Writes release notes. Use when asked for release notes.\n---\n# Notes\nSee references/style.md.\n';

function setup() {
  const dir = tempDir('whet-codex-installed-');
  const skillDir = join(dir, 'skill');
  mkdirSync(join(skillDir, 'references'), { recursive: true });
  writeFileSync(join(skillDir, 'SKILL.md'), skillText);
  writeFileSync(join(skillDir, 'references/style.md'), '# Style\n');
  const logFile = join(dir, 'codex.log');
  const readLog = (): LogEntry[] => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogEntry) : []);
  const run = (mode: string, over: Partial<CodexEngineConfig> = {}, extra: Record<string, string> = {}) => {
    const env = { ...process.env, PATH: `${fixturesBin}${delimiter}${process.env['PATH'] ?? ''}`, FAKE_CODEX_LOG: logFile, FAKE_CODEX_MODE: mode, ...extra };
    const request: EngineRequest = { kind: 'task', prompt: 'release notes for v2', skill: { name: 'notes', text: skillText, dir: skillDir }, taskId: 't1', timeoutMs: 15_000 };
    return createCodexEngine({ type: 'codex', skill_delivery: 'installed', ...over }, { env, retry: { policy: { maxRetries: 3, maxWaitMs: 1000, baseDelayMs: 20, maxBackoffMs: 40 } } }).run(request);
  };
  return { dir, run, readLog };
}

describe('codex engine, skill_delivery: installed', () => {
  it('places the skill folder at <workspace>/.agents/skills/<name>/ (a repository skill), writes no AGENTS.md, sends only the prompt', async () => {
    const s = setup();
    const r = await s.run('skill_no_read');
    expect(r.ok, r.error?.message).toBe(true);
    const [e] = s.readLog();
    expect(e?.files).toEqual(['.agents/skills/notes/SKILL.md', '.agents/skills/notes/references/style.md']);
    expect(e?.agents_md).toBeNull();
    expect(e?.skills).toEqual([{ name: 'notes', scope: 'repo', path: join(e!.cwd, '.agents/skills/notes/SKILL.md') }]);
    expect(e?.stdin).toBe('release notes for v2');
  });

  it('a read of the installed SKILL.md is a trigger; a run that never opens it is not', async () => {
    const s = setup();
    const read = await s.run('skill_read');
    expect(read).toMatchObject({ ok: true, skill_triggered: true, output: 'fake codex answer' });
    expect(read.tool_calls?.[0]).toMatchObject({ name: 'command_execution', input: { command: expect.stringContaining('.agents/skills/notes/SKILL.md'), exit_code: 0, status: 'completed' } });
    const none = await s.run('skill_no_read');
    expect(none).toMatchObject({ ok: true, skill_triggered: false });
    expect(none.tool_calls?.map((c) => c.name)).toEqual(['command_execution']);
    // Reading another skill's SKILL.md is no trigger of this one.
    expect(await s.run('skill_read', {}, { FAKE_CODEX_SKILL: 'other' })).toMatchObject({ ok: true, skill_triggered: false });
  });

  it('a declined read is skill_denied, not a trigger', async () => {
    const s = setup();
    const r = await s.run('skill_declined');
    expect(r).toMatchObject({ ok: true, skill_triggered: false, skill_denied: true });
  });

  it('agents_md and prepend report no trigger at all (the skill is always in context)', async () => {
    const s = setup();
    expect((await s.run('skill_read', { skill_delivery: 'agents_md' })).skill_triggered).toBeUndefined();
    expect((await s.run('skill_read', { skill_delivery: 'prepend' })).skill_triggered).toBeUndefined();
  });

  it('turn.failed with a 429 is retried in a fresh run, like claude, and the retry can succeed', async () => {
    const s = setup();
    const r = await s.run('rate_429', {}, { FAKE_CODEX_FAILS: '2' });
    expect(r.ok, r.error?.message).toBe(true);
    expect(r.attempts).toBe(3);
    expect(r.failed_attempts?.map((f) => f.status)).toEqual([429, 429]);
    expect(s.readLog().map((e) => e.cwd).every((cwd, i, all) => all.indexOf(cwd) === i)).toBe(true);
    const exhausted = await s.run('rate_429');
    expect(exhausted.ok).toBe(false);
    expect(exhausted.error).toMatchObject({ kind: 'exit', status: 429, message: expect.stringMatching(/429 Too Many Requests.*gave up after 4 attempts/) });
  });
});

describe('codex trigger measurement through whet evaluate', () => {
  function project(): string {
    const dir = tempDir();
    write(join(dir, 'skill/SKILL.md'), skillText);
    write(
      join(dir, 'skill/tasks.yaml'),
      'skill_id: notes\nversion: "1.0"\ntasks:\n' +
        '  - {id: t1, prompt: "release notes please", should_trigger: true, judge: {type: regex, pattern: "."}}\n' +
        '  - {id: t2, prompt: "changelog for v2", should_trigger: true, judge: {type: regex, pattern: "."}}\n' +
        '  - {id: n1, prompt: "what time is it", negative: true, should_trigger: false, judge: {type: regex, pattern: "."}}\n',
    );
    write(join(dir, 'pipeline.yaml'), 'engine: {type: codex, skill_delivery: installed}\n');
    return dir;
  }
  const args = ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--json', '--force'];
  const env = (mode: string) => ({ ...process.env, PATH: `${fixturesBin}:${process.env.PATH}`, FAKE_CODEX_MODE: mode });

  it("measures the trigger rate, and counts a negative control's false trigger", async () => {
    const dir = project();
    const always = await whet(args, { cwd: dir, env: env('skill_read') });
    const a = JSON.parse(always.stdout);
    expect(a.evaluation.trigger).toMatchObject({ trigger_rate: 1, triggered: 2, should: 2, recall: 1, false_trigger_rate: 1, false_triggered: 1, should_not: 1, precision: 0.6667 });
    expect(a.task_results.find((t: any) => t.task_id === 'n1')).toMatchObject({ passed: false, reason: expect.stringMatching(/trigger: skill triggered; should not trigger/) });
    const never = JSON.parse((await whet(args, { cwd: dir, env: env('skill_no_read') })).stdout);
    expect(never.evaluation.trigger).toMatchObject({ trigger_rate: 0, triggered: 0, false_trigger_rate: 0, false_triggered: 0 });
    expect(never.evaluation).toMatchObject({ passed: 1, failed: 2, errors: 0 });
  });
});
