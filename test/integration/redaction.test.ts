// No copy of a key survives a run: a key in base_url's userinfo or in a command engine's argv is redacted
// in run.json, evaluation.json, the results, the cache, the nightly files and in everything printed —
// checked by searching every file of the state directory and all output for the key's bytes.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redactArgv, redactText } from '../../src/core/redact.js';
import { startLoopbackServer } from '../support/http/server.js';
import { openaiCompletion } from '../support/http/wire.js';
import { fixturesBin, tempDir, whet, write } from '../support/cli.js';

function everyFile(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? everyFile(p) : [p];
  });
}

function project(engine: string): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '# Notes\nAlways cite the ticket number.\n');
  const tasks = Array.from({ length: 3 }, (_, i) => `  - {id: t${i}, prompt: "note ${i}", judge: {type: contains, expected: ["ticket number"]}}`);
  write(join(dir, 'skill/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
  write(join(dir, 'pipeline.yaml'), `engine: ${engine}\ntargets: [{skill: skill}]\n`);
  return dir;
}

/** Runs the commands, then asserts `secret` is in no file under the project's state and no output. */
async function leaves(dir: string, secrets: string[], commands: string[][], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  let printed = '';
  for (const argv of commands) {
    const r = await whet(argv, { cwd: dir, env, now: () => new Date(2026, 10, 1, 3) });
    printed += r.stdout + r.stderr;
  }
  const files = everyFile(join(dir, 'state'));
  expect(files.length).toBeGreaterThan(5);
  for (const s of secrets) {
    expect(printed, `output holds ${s}`).not.toContain(s);
    for (const f of files) expect(readFileSync(f).includes(s), `${f} holds ${s}`).toBe(false);
  }
  return printed;
}

describe('secrets are redacted everywhere they are recorded or printed', () => {
  it('a key in base_url userinfo appears in no state file and no output', async () => {
    const server = await startLoopbackServer(() => ({ body: openaiCompletion({ content: 'the ticket number' }) }));
    try {
      const url = server.url.replace('http://', 'http://user:sk-LOOPBACKSECRET42@');
      const dir = project(`{type: openai, model: gpt-test, base_url: "${url}/v1", api_key_env: TEST_KEY, max_retries: 0}`);
      const printed = await leaves(dir, ['sk-LOOPBACKSECRET42', 'LOOPBACKSECRET42'], [
        ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill'],
        ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--json'],
        ['nightly'],
        ['nightly', '--json'],
        ['status'],
        ['report'],
        ['doctor'],
      ], { ...process.env, TEST_KEY: 'k' });
      // Redacted, not dropped: the endpoint is still named.
      expect(printed).toContain(`http://***@127.0.0.1:`);
      const run = readdirSync(join(dir, 'state/runs'))[0]!;
      expect(readFileSync(join(dir, 'state/runs', run, 'run.json'), 'utf8')).toContain('"base_url": "http://***@127.0.0.1:');
    } finally {
      await server.close();
    }
  });

  it('key-looking command argv values are redacted; the program still receives them', async () => {
    const log = join(tempDir(), 'argv.log');
    const dir = project(`{type: command, command: ["${join(fixturesBin, 'echo-agent')}", "--api-key", "ARGVSECRET1", "OPENAI_API_KEY=sk-ARGVSECRET2xx"]}`);
    await leaves(dir, ['ARGVSECRET1', 'ARGVSECRET2'], [
      ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--json'],
      ['nightly', '--json'],
    ], { ...process.env, AGENT_FAIL: 't1', AGENT_LOG: log });
    // The agent ran (it was given the real argv; only the recorded copies are redacted).
    expect(readFileSync(log, 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(2);
    const run = readdirSync(join(dir, 'state/runs'))[0]!;
    expect(JSON.parse(readFileSync(join(dir, 'state/runs', run, 'evaluation.json'), 'utf8')).engine.identity.command.slice(1)).toEqual(['--api-key', '***', 'OPENAI_API_KEY=***']);
  });

  it('redacts userinfo, sk- keys, secret flags and assignments, and leaves ordinary text alone', () => {
    expect(redactText('GET https://me:pa55@api.example.com/v1 failed')).toBe('GET https://***@api.example.com/v1 failed');
    expect(redactText('key sk-ant-api03-abcdefgh and --token=abc123 and X_API_KEY=zzz')).toBe('key sk-ant-*** and --token=*** and X_API_KEY=***');
    expect(redactArgv(['prog', '--password', 'hunter2', '--model', 'gpt'])).toEqual(['prog', '--password', '***', '--model', 'gpt']);
    const plain = 'Basic rules: ask for the task id, mention risk-assessment, see https://example.com/a@b and monkey=banana.';
    expect(redactText(plain)).toBe(plain);
  });
});
