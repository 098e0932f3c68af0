// runJudge's own rules (abort, unknown type), script runs classified, results combined.
import { describe, it, expect } from 'vitest';
import type { JudgeSpec } from '../../src/config/suite-schema.js';
import type { JudgeResult } from '../../src/judges/types.js';
import { noVerdict } from '../../src/judges/script.js';
import { runJudge, combineJudgeResults } from '../../src/judges/index.js';
import { ctx } from '../support/judge-context.js';

describe('runJudge', () => {
  it('returns error instead of judging when already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await runJudge({ type: 'contains', expected: ['a'] }, ctx('a', { signal: ac.signal }));
    expect(r).toMatchObject({ passed: false, error: 'aborted before judging' });
  });

  it('returns error for an unknown judge type', async () => {
    const r = await runJudge({ type: 'mind_reading' } as unknown as JudgeSpec, ctx('a'));
    expect(r.error).toBe('unknown judge type "mind_reading"');
  });
});

describe('noVerdict (script/pytest run classification)', () => {
  const base = { signal: null, stdout: '', stderr: '', timedOut: false, aborted: false, durationMs: 1 };
  it('treats real exit codes as verdicts and everything else as no verdict', () => {
    expect(noVerdict({ ...base, exitCode: 0 }, 1000)).toBeUndefined();
    expect(noVerdict({ ...base, exitCode: 1 }, 1000)).toBeUndefined();
    expect(noVerdict({ ...base, exitCode: -2 }, 1000)).toBe('could not be started (spawn errno -2)');
    expect(noVerdict({ ...base, exitCode: null, signal: 'SIGKILL', timedOut: true }, 1000)).toMatch(/timed out after 1000 ms/);
    expect(noVerdict({ ...base, exitCode: 127, spawnError: 'cannot run x' }, 1000)).toBe('cannot run x');
  });
});

describe('combineJudgeResults', () => {
  const pass = (type: JudgeResult['type'], score = 1): JudgeResult => ({ type, passed: true, score, reason: 'ok' });

  it('passes only when all pass; score is the mean', () => {
    const c = combineJudgeResults([pass('contains'), pass('regex', 0.5)]);
    expect(c).toEqual({ passed: true, score: 0.75, reason: 'contains: ok; regex: ok' });
    const f = combineJudgeResults([pass('contains'), { type: 'json', passed: false, score: 0, reason: 'not valid JSON' }]);
    expect(f).toEqual({ passed: false, score: 0.5, reason: 'contains: ok; json: not valid JSON' });
  });

  it('is an error when any judge errored', () => {
    const c = combineJudgeResults([
      pass('contains'),
      { type: 'pytest', passed: false, score: 0, reason: 'error: boom', error: 'boom' },
      { type: 'script', passed: false, score: 0, reason: 'error: bang', error: 'bang' },
    ]);
    expect(c.passed).toBe(false);
    expect(c.error).toBe('pytest: boom; script: bang');
    expect(c.score).toBe(0.3333);
  });

  it('never passes a task with an errored judge, even one wrongly marked passed', () => {
    const c = combineJudgeResults([pass('contains'), { type: 'script', passed: true, score: 1, reason: 'odd', error: 'half-broken' }]);
    expect(c.passed).toBe(false);
    expect(c.error).toBe('script: half-broken');
  });

  it('treats an empty list as an error, not a vacuous pass', () => {
    expect(combineJudgeResults([])).toMatchObject({ passed: false, error: 'no judges ran' });
  });
});
