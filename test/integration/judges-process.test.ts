// Script and pytest judges really start programs (bash, python3 -m pytest) from test/fixtures/judges.
import { describe, it, expect } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { access, chmod, copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import type { JudgeSpec, Task } from '../../src/config/suite-schema.js';
import type { JudgeContext } from '../../src/judges/types.js';
import { runJudge } from '../../src/judges/index.js';
import { tempDir } from '../support/temp.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const suiteDir = path.resolve(here, '../fixtures/judges/suite');

function task(): Task {
  return {
    id: 'task-42',
    prompt: 'Say hello and give one JSON line.',
    judges: [],
    timeoutMs: 20_000,
    category: 'default',
    negative: false,
    critical: false,
    index: 0,
  };
}

function ctx(output: string, over: Partial<JudgeContext> = {}): JudgeContext {
  return { output, task: task(), suiteDir, timeoutMs: 20_000, ...over };
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

describe('script judge', () => {
  it('passes when the script exits 0, with the output in AI_OUTPUT_FILE and on stdin', async () => {
    const r = await runJudge({ type: 'script', command: ['judges/check-token.sh'] }, ctx('here is PASS-TOKEN\n'));
    expect(r.error).toBeUndefined();
    expect(r).toMatchObject({ type: 'script', passed: true, score: 1 });
    expect(r.reason).toBe('exit 0: token found');
  });

  it('fails on a non-zero exit with the last lines of stdout and stderr', async () => {
    const r = await runJudge({ type: 'script', command: 'judges/check-token.sh' }, ctx('nothing here'));
    expect(r.error).toBeUndefined();
    expect(r).toMatchObject({ passed: false, score: 0 });
    expect(r.reason).toContain('exit code 1');
    expect(r.reason).toContain('line one of the complaint');
    expect(r.reason).toContain('PASS-TOKEN not in output');
    expect(r.reason).toContain('task=task-42 prompt=Say hello');
  });

  it('splits a string command on whitespace and runs programs from PATH', async () => {
    const r = await runJudge({ type: 'script', command: 'grep -q hello' }, ctx('say hello'));
    expect(r.passed).toBe(true);
    const miss = await runJudge({ type: 'script', command: 'grep -q hello' }, ctx('bye'));
    expect(miss).toMatchObject({ passed: false, reason: 'exit code 1' });
  });

  it('runs in the suite folder and removes the output file afterwards', async () => {
    const r = await runJudge({ type: 'script', command: ['./judges/record-path.sh'] }, ctx('x'));
    expect(r.passed).toBe(true);
    // record-path.sh prints file=… then cwd=…; the pass reason keeps the last stdout line.
    expect(r.reason).toBe(`exit 0: cwd=${suiteDir}`);
    const fileRun = await runJudge({ type: 'script', command: ['bash', '-c', 'echo "$AI_OUTPUT_FILE"'] }, ctx('x'));
    const file = fileRun.reason.replace(/^exit 0: /, '');
    expect(file).toMatch(/whet-judge-.*output\.txt$/);
    expect(await exists(file)).toBe(false);
  });

  it('does not break when the script ignores a large stdin', async () => {
    const big = 'y'.repeat(2_000_000);
    const r = await runJudge({ type: 'script', command: ['judges/ignore-stdin.py'] }, ctx(big));
    expect(r.error).toBeUndefined();
    expect(r).toMatchObject({ passed: true, reason: `exit 0: size=${big.length}` });
  });

  it('gives a stdin reader an empty, closed stdin when the output is empty', async () => {
    const r = await runJudge({ type: 'script', command: ['bash', '-c', 'n=$(wc -c); test "$n" -eq 0'] }, ctx('', { timeoutMs: 5_000 }));
    expect(r.error).toBeUndefined();
    expect(r.passed).toBe(true);
  });

  it('returns error on timeout, using timeout_seconds', async () => {
    const started = Date.now();
    const r = await runJudge({ type: 'script', command: ['judges/slow.sh'], timeout_seconds: 0.5 }, ctx('x'));
    expect(r.passed).toBe(false);
    expect(r.error).toMatch(/timed out after 500 ms/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('falls back to the context timeout', async () => {
    const r = await runJudge({ type: 'script', command: ['judges/slow.sh'] }, ctx('x', { timeoutMs: 300 }));
    expect(r.error).toMatch(/timed out after 300 ms/);
  });

  it('returns error when the program cannot be started', async () => {
    const missing = await runJudge({ type: 'script', command: ['judges/no-such-script.sh'] }, ctx('x'));
    expect(missing.passed).toBe(false);
    expect(missing.error).toMatch(/cannot run \/.*\/judges\/no-such-script\.sh: .*No such file or directory$/);
    expect(missing.error).not.toContain('whet-judge: line');
    const dir = tempDir('whet-judges-script-');
    await writeFile(path.join(dir, 'plain.sh'), '#!/usr/bin/env bash\nexit 0\n');
    await chmod(path.join(dir, 'plain.sh'), 0o644);
    const notExec = await runJudge({ type: 'script', command: ['./plain.sh'] }, ctx('x', { suiteDir: dir }));
    expect(notExec.error).toMatch(/cannot run/);
  });

  it('returns error when aborted mid-run or when the suite folder is missing', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const aborted = await runJudge({ type: 'script', command: ['judges/slow.sh'] }, ctx('x', { signal: ac.signal }));
    expect(aborted.passed).toBe(false);
    expect(aborted.error).toMatch(/aborted/);
    const nowhere = await runJudge({ type: 'script', command: ['true'] }, ctx('x', { suiteDir: '/nonexistent/whet-suite' }));
    expect(nowhere.passed).toBe(false);
    expect(nowhere.error).toBe('suite folder /nonexistent/whet-suite does not exist');
  });

  it('returns error when the script dies on a signal', async () => {
    const r = await runJudge({ type: 'script', command: ['bash', '-c', 'kill -SEGV $$'] }, ctx('x'));
    expect(r.passed).toBe(false);
    expect(r.error).toMatch(/SIGSEGV|signal/);
  });
});

describe('pytest judge', () => {
  const spec: JudgeSpec = { type: 'pytest', test_file: 'fixtures/test_output.py' };

  it('passes when the tests pass on the output (seed fixtures/ path)', async () => {
    const r = await runJudge(spec, ctx('Hello world\n{"ok": true}\n'));
    expect(r.error).toBeUndefined();
    expect(r).toMatchObject({ type: 'pytest', passed: true, score: 1 });
    expect(r.reason).toMatch(/^tests passed: 2 passed/);
  });

  // pytest prints its short summary differently when CI is set (the whole multi-line message), so the
  // reason is checked both ways: a CI machine must see the same reason as a laptop.
  it.each([undefined, 'true'])('fails when a test fails (exit 1) and says which (CI=%s)', async (ci) => {
    const saved = process.env.CI;
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
    try {
      const r = await runJudge(spec, ctx('Goodbye\n{"ok": true}\n'));
      expect(r.error).toBeUndefined();
      expect(r).toMatchObject({ passed: false, score: 0 });
      expect(r.reason).toMatch(/^tests failed: test_mentions_hello \| AssertionError: output does not say hello \| 1 failed, 1 passed in [\d.]+s$/);
      const both = await runJudge(spec, ctx('Goodbye\n'));
      expect(both.reason).toMatch(/^tests failed: test_mentions_hello, test_has_json_line \| AssertionError: output does not say hello \| 2 failed in /);
    } finally {
      if (saved === undefined) delete process.env.CI;
      else process.env.CI = saved;
    }
  });

  it('tells a missing pytest and other pytest exit codes apart from failed tests', async () => {
    // A fake python3 first on PATH stands in for a broken Python setup.
    const bin = tempDir('whet-judges-fakepy-');
    await writeFile(
      path.join(bin, 'python3'),
      '#!/usr/bin/env bash\necho "$FAKE_PY_MSG" >&2\nexit "$FAKE_PY_EXIT"\n',
    );
    await chmod(path.join(bin, 'python3'), 0o755);
    const saved = { PATH: process.env.PATH, msg: process.env.FAKE_PY_MSG, exit: process.env.FAKE_PY_EXIT };
    process.env.PATH = `${bin}${path.delimiter}${saved.PATH ?? ''}`;
    try {
      process.env.FAKE_PY_MSG = '/usr/bin/python3: No module named pytest';
      process.env.FAKE_PY_EXIT = '1';
      const missing = await runJudge(spec, ctx('hello'));
      expect(missing.error).toMatch(/pytest is not installed for python3/);
      process.env.FAKE_PY_MSG = 'INTERNALERROR> boom';
      process.env.FAKE_PY_EXIT = '3';
      const internal = await runJudge(spec, ctx('hello'));
      expect(internal.error).toBe('pytest exit code 3 (internal error): INTERNALERROR> boom');
      process.env.FAKE_PY_MSG = 'error: unrecognized arguments';
      process.env.FAKE_PY_EXIT = '4';
      expect((await runJudge(spec, ctx('hello'))).error).toMatch(/exit code 4 \(usage error\)/);
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.msg === undefined) delete process.env.FAKE_PY_MSG;
      else process.env.FAKE_PY_MSG = saved.msg;
      if (saved.exit === undefined) delete process.env.FAKE_PY_EXIT;
      else process.env.FAKE_PY_EXIT = saved.exit;
    }
  });

  it('reports no tests collected (exit 5) as error', async () => {
    const r = await runJudge({ type: 'pytest', test_file: 'fixtures/test_empty.py' }, ctx('hello'));
    expect(r.passed).toBe(false);
    expect(r.error).toMatch(/exit code 5 \(no tests were collected\)/);
  });

  it('reports a collection error (exit 2) as error', async () => {
    const r = await runJudge({ type: 'pytest', test_file: 'fixtures/test_broken.py' }, ctx('hello'));
    expect(r.error).toMatch(/exit code 2 \(test run was interrupted/);
    expect(r.error).toContain('module_that_does_not_exist_anywhere');
  });

  it('finds a bare test_file in the suite’s fixtures/ folder, as the seed ran "pytest on fixtures/{test_file}"', async () => {
    const r = await runJudge({ type: 'pytest', test_file: 'test_output.py' }, ctx('Hello world\n{"ok": true}\n'));
    expect(r.error).toBeUndefined();
    expect(r).toMatchObject({ type: 'pytest', passed: true, score: 1 });
  });

  it('reports a missing test file as error with its path', async () => {
    const r = await runJudge({ type: 'pytest', test_file: 'fixtures/test_missing.py' }, ctx('hello'));
    expect(r.error).toBe(`pytest test_file "fixtures/test_missing.py" not found: ${path.join(suiteDir, 'fixtures/test_missing.py')}`);
  });

  it('refuses paths that escape the suite folder', async () => {
    const rel = await runJudge({ type: 'pytest', test_file: '../outside/test_outside.py' }, ctx('hello'));
    expect(rel.passed).toBe(false);
    expect(rel.error).toMatch(/is outside the suite folder .*refused/);
    const abs = path.resolve(suiteDir, '../outside/test_outside.py');
    const absolute = await runJudge({ type: 'pytest', test_file: abs }, ctx('hello'));
    expect(absolute.error).toMatch(/is outside the suite folder/);
    const sneaky = await runJudge({ type: 'pytest', test_file: 'fixtures/../../outside/test_outside.py' }, ctx('hello'));
    expect(sneaky.error).toMatch(/is outside the suite folder/);
  });

  it('accepts an absolute path that is inside the suite', async () => {
    const r = await runJudge({ type: 'pytest', test_file: path.join(suiteDir, 'fixtures/test_output.py') }, ctx('hello\n{"ok": true}'));
    expect(r.passed).toBe(true);
  });

  it('refuses a symlink that escapes the suite folder', async () => {
    const root = tempDir('whet-judges-pytest-');
    const suite = path.join(root, 'suite');
    await mkdir(path.join(suite, 'fixtures'), { recursive: true });
    await copyFile(path.resolve(suiteDir, '../outside/test_outside.py'), path.join(root, 'test_outside.py'));
    await symlink(path.join(root, 'test_outside.py'), path.join(suite, 'fixtures', 'test_link.py'));
    const r = await runJudge({ type: 'pytest', test_file: 'fixtures/test_link.py' }, ctx('hello', { suiteDir: suite }));
    expect(r.passed).toBe(false);
    expect(r.error).toMatch(/through a symlink/);
  });

  it('returns error on timeout', async () => {
    const dir = tempDir('whet-judges-pytest-slow-');
    await writeFile(path.join(dir, 'test_slow.py'), 'import time\n\ndef test_slow():\n    time.sleep(30)\n');
    const r = await runJudge({ type: 'pytest', test_file: 'test_slow.py', timeout_seconds: 1 }, ctx('x', { suiteDir: dir }));
    expect(r.error).toMatch(/timed out after 1000 ms/);
  });

  it('does not write caches into the suite folder', async () => {
    const dir = tempDir('whet-judges-pytest-clean-');
    await copyFile(path.join(suiteDir, 'fixtures/test_output.py'), path.join(dir, 'test_output.py'));
    const r = await runJudge({ type: 'pytest', test_file: 'test_output.py' }, ctx('hello\n{"ok": true}', { suiteDir: dir }));
    expect(r.passed).toBe(true);
    expect(await exists(path.join(dir, '.pytest_cache'))).toBe(false);
    expect(await exists(path.join(dir, '__pycache__'))).toBe(false);
  });
});
