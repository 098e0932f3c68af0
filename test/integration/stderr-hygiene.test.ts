// What a person sees on stderr: no MaxListenersExceededWarning however many engine programs run at once
// (the built CLI as its own process, so node's warnings reach its stderr), and diagnostic logs as text
// lines, JSON only when asked for with WHET_LOG_FORMAT=json.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createLog, humanLine } from '../../src/core/log.js';
import { runProcess } from '../../src/core/proc.js';
import { fixturesBin, repoRoot, tempDir, write } from '../support/cli.js';

const cli = join(repoRoot, 'dist/src/cli.js');

function project(): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '# Notes\nAlways cite the ticket number.\n');
  const tasks = Array.from({ length: 40 }, (_, i) => `  - {id: t${i}, prompt: "note ${i}", judge: {type: contains, expected: ["ticket number"]}}`);
  write(join(dir, 'skill/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\ntargets: [{skill: skill}]\n`);
  return dir;
}

describe('stderr is for people', () => {
  it('prints no MaxListenersExceededWarning at the default and at a high concurrency', async () => {
    const dir = project();
    // Slow enough answers that every slot is busy at once.
    const env = { ...process.env, AGENT_SLEEP_MS: '300' };
    for (const extra of [[], ['--concurrency', '32']]) {
      const r = await runProcess({ argv: [process.execPath, cli, 'evaluate', '--standalone', '--force', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', ...extra], cwd: dir, env, timeoutMs: 120_000 });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/pass rate 1\.0000 \(40\/40 judged\)/);
      expect(r.stderr).not.toMatch(/MaxListenersExceededWarning|memory leak/);
    }
    const n = await runProcess({ argv: [process.execPath, cli, 'nightly'], cwd: dir, env, timeoutMs: 120_000 });
    expect(n.exitCode, n.stderr).toBe(0);
    expect(n.stderr).not.toMatch(/MaxListenersExceededWarning/);
  });

  it('writes log lines as text by default and as JSON with WHET_LOG_FORMAT=json', () => {
    let text = '';
    createLog({}, (s) => (text += s)).warn({ stateDir: '/tmp/a b', err: 'Unable to update lock' }, 'state lock compromised');
    expect(text).toBe('whet: warn: state lock compromised (stateDir="/tmp/a b", err="Unable to update lock")\n');
    let json = '';
    createLog({ WHET_LOG_FORMAT: 'json', WHET_LOG_LEVEL: 'info' }, (s) => (json += s)).info({ url: 'http://u:KEY1@h/v1' }, 'engine call failed');
    expect(JSON.parse(json)).toMatchObject({ level: 30, msg: 'engine call failed', url: 'http://***@h/v1' });
    let quiet = '';
    createLog({}, (s) => (quiet += s)).info('not at the default level');
    expect(quiet).toBe('');
    expect(humanLine('{"level":50,"time":"t","msg":"m","n":3}')).toBe('whet: error: m (n=3)\n');
  });
});
