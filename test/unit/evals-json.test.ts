import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { symlinkSync } from 'node:fs';
import { loadSuite } from '../../src/config/suite.js';
import { safeIdFor, slugify, IdAllocator } from '../../src/config/eval-ids.js';
import { SAFE_ID } from '../../src/config/suite-schema.js';
import { suiteFor } from '../../src/config/targets.js';
import { lintSuite } from '../../src/lint/run.js';
import { repoRoot, tempDir, write } from '../support/cli.js';
import { errorOf } from '../support/errors.js';

const fx = join(repoRoot, 'test/fixtures/evals-json');

/** A skill folder with SKILL.md and the given evals.json text; returns the evals.json path. */
function skill(evals: string, extra: Record<string, string> = {}): string {
  const dir = tempDir();
  write(join(dir, 'SKILL.md'), '---\nname: s\ndescription: d\n---\n# S\n');
  for (const [p, text] of Object.entries(extra)) write(join(dir, p), text);
  return write(join(dir, 'evals/evals.json'), evals);
}

describe('skill-creator evals.json as a task suite', () => {
  it('reads the documented shape: ids made safe, prompt, files, expected_output, one llm-rubric per expectation', () => {
    const s = loadSuite(join(fx, 'canonical/evals/evals.json'));
    expect(s).toMatchObject({ skillId: 'csv-summary', format: 'skill-creator-evals' });
    expect(s.tasks.map((t) => t.id)).toEqual(['eval-1', 'eval-2']);
    const [t1] = s.tasks;
    expect(t1).toMatchObject({ prompt: expect.stringMatching(/^Count the rows/), description: 'A short summary: row count and column names.', origin: { format: 'skill-creator-evals', id: 1 } });
    expect(t1!.judges).toEqual([
      { type: 'llm-rubric', rubric: 'Count the rows of the CSV file' },
      { type: 'llm-rubric', rubric: 'Name every column of the file' },
    ]);
    expect(t1!.expectations).toEqual(['Count the rows of the CSV file', 'Name every column of the file']);
    expect(t1!.files).toEqual([{ source: join(fx, 'canonical/evals/files/sales.csv'), path: 'evals/files/sales.csv' }]);
    expect(t1!.unjudged).toBeUndefined();
  });

  it('reads the variants: assertions as strings or text/description/check objects, ids from 0 with gaps or text, extra keys, files anywhere in the skill', () => {
    const s = loadSuite(join(fx, 'variants/evals/evals.json'));
    expect(s.skillId).toBe('commit-messages');
    expect(s.tasks.map((t) => t.id)).toEqual(['eval-0', 'eval-7', 'eval-footer-refs']);
    expect(s.tasks.map((t) => t.origin)).toEqual([
      { format: 'skill-creator-evals', id: 0, name: 'imperative subject' },
      { format: 'skill-creator-evals', id: 7, name: 'why in the body' },
      { format: 'skill-creator-evals', id: 'footer-refs' },
    ]);
    expect(s.tasks[0]!.expectations).toEqual(['Write the subject line in the imperative mood', 'The subject is at most 50 characters', 'Reference the issue number in the footer']);
    expect(s.tasks[0]!.category).toBe('subject-line');
    expect(s.tasks[0]!.files!.map((f) => f.path)).toEqual(['evals/cases/retry.diff', 'SKILL.md']);
    expect(s.tasks[1]!.files!.map((f) => f.path)).toEqual(['references/style.md', 'examples/good.md']);
    // should_trigger inside an evals.json is the author's note, not a trigger judgement (trigger sets are their own files).
    expect(s.tasks[1]!.shouldTrigger).toBeUndefined();
    expect(s.tasks[2]!.description).toBe('A footer line “Refs #123”.');
  });

  it('grades against expected_output when there are no expectations, and marks an eval with neither as unjudged (CJK, Cyrillic, \\u escapes, no final newline)', () => {
    const s = loadSuite(join(fx, 'expected-only/evals/evals.json'));
    expect(s.tasks.map((t) => [t.id, t.unjudged ?? false, t.judges.length])).toEqual([
      ['eval-1', false, 1],
      ['eval-2', false, 1],
      ['eval-3', true, 0],
      ['eval-4', true, 0],
    ]);
    expect(s.tasks[0]!.expectations).toEqual(['Greet in Korean with 안녕하세요 and a bow.']);
    expect(s.tasks[1]!.expectations).toEqual(['Здравствуйте and a handshake']);
    expect(s.tasks[1]!.prompt).toBe('Поздоровайся по-русски: Здравствуйте');
  });

  it('takes files relative to the folder holding evals/ when SKILL.md sits in a sub-folder, and finds that evals.json for the skill', () => {
    const s = loadSuite(join(fx, 'repo-root/evals/evals.json'));
    expect(s.tasks[0]!.files).toEqual([{ source: join(fx, 'repo-root/skills/haiku/SKILL.md'), path: 'skills/haiku/SKILL.md' }]);
    expect(suiteFor(join(fx, 'repo-root/skills/haiku'))).toBe(join(fx, 'repo-root/evals/evals.json'));
    expect(suiteFor(join(fx, 'canonical'))).toBe(join(fx, 'canonical/evals/evals.json'));
  });

  it('is linted like any suite, findings at the line of the eval they are about and the skill found above evals/', () => {
    const r = lintSuite({ suite: join(fx, 'canonical/evals/evals.json') }, fx);
    expect(r.skill).toBe('canonical');
    expect(r.tasks).toBe(2);
    // The format's own integer ids are no finding (issue 40); a text id that is a position still is, at its eval's line.
    expect(r.findings.filter((f) => f.rule === 'id-positional')).toEqual([]);
    expect(r.errors).toBe(0);
    const f = skill('{"evals": [\n  {"id": "x", "prompt": "p", "expectations": ["a"]},\n  {"id": "3", "prompt": "q", "expectations": ["b"]}\n]}');
    expect(lintSuite({ suite: f }, fx).findings.filter((x) => x.rule === 'id-positional').map((x) => [x.task, x.line])).toEqual([['eval-3', 3]]);
  });

  it('hashes the files an eval names, so editing one changes the suite', () => {
    const f = skill('{"evals": [{"id": 1, "prompt": "p", "files": ["data/a.txt"], "expectations": ["x"]}]}', { 'data/a.txt': 'one' });
    const before = loadSuite(f).contentHash;
    write(join(f, '../../data/a.txt'), 'two');
    expect(loadSuite(f).contentHash).not.toBe(before);
  });

  it.each([
    ['both expectations and assertions', '{"evals": [{"id": 1, "prompt": "p", "expectations": ["a"], "assertions": ["b"]}]}', /evals\.json:1:\d+ evals\[0\]\.assertions: give either "expectations" or "assertions", not both/],
    ['an assertion object without a statement', '{"evals": [\n  {"id": 1, "prompt": "p", "assertions": [{"name": "n"}]}\n]}', /evals\.json:2:43 evals\[0\]\.assertions\[0\]: an assertion object needs its statement under "text", "check" or "description"/],
    ['a missing file', '{"evals": [\n {"id": 3, "prompt": "p", "files": ["evals/files/nope.pdf"]}\n]}', /evals\.json:2:37 evals\[0\]\.files\[0\]: eval 3: file not found: evals\/files\/nope\.pdf/],
    ['a file outside the skill', '{"evals": [{"id": "x", "prompt": "p", "files": ["../secret.txt"]}]}', /evals\[0\]\.files\[0\]: eval "x": "\.\.\/secret\.txt" is outside the skill folder/],
    ['an absolute file', '{"evals": [{"id": 1, "prompt": "p", "files": ["/etc/passwd"]}]}', /is outside the skill folder/],
    ['a missing prompt', '{"evals": [{"id": 1, "expectations": ["a"]}]}', /evals\.json:1:12 evals\[0\]\.prompt: missing required key "prompt"/],
    ['duplicate ids', '{"evals": [\n{"id": 1, "prompt": "p"},\n{"id": 1, "prompt": "q"}\n]}', /evals\.json:3:8 evals\[1\]\.id: duplicate eval id 1 \(first used at line 2\)/],
    ['no evals', '{"skill_name": "s", "evals": []}', /evals: lists no evals/],
    ['invalid JSON', '{"evals": [{"id": 1, "prompt": "p",]}', /evals\.json:\d+:\d+: invalid JSON/],
  ])('refuses %s at evals.json:line:col', (_what, text, msg) => {
    expect(errorOf(() => loadSuite(skill(text))).message).toMatch(msg);
  });

  it('refuses a link that leaves the skill folder', () => {
    const outside = write(join(tempDir(), 'secret.txt'), 's');
    const f = skill('{"evals": [{"id": 1, "prompt": "p", "files": ["link.txt"]}]}');
    symlinkSync(outside, join(f, '../../link.txt'));
    expect(errorOf(() => loadSuite(f)).message).toMatch(/"link\.txt" resolves \(through a link\) outside the skill folder/);
  });

  it('copies a folder an eval names, and refuses one holding a link out of the skill', () => {
    const f = skill('{"evals": [{"id": 1, "prompt": "p", "files": ["data"], "expectations": ["x"]}]}', { 'data/a.txt': 'a', 'data/sub/b.txt': 'b' });
    expect(loadSuite(f).tasks[0]!.files).toEqual([{ source: join(f, '../../data'), path: 'data' }]);
    symlinkSync(write(join(tempDir(), 'secret.txt'), 's'), join(f, '../../data/sub/link.txt'));
    expect(errorOf(() => loadSuite(f)).message).toMatch(/eval 1: "data\/sub\/link\.txt" inside "data" resolves \(through a link\) outside the skill folder/);
  });

  it.each([
    ['a test_cases list of {input, expected_behavior}', '{\n  "skill": "s",\n  "test_cases": [{"input": "i", "expected_behavior": "b"}]\n}', /evals\.json:3:17: not a suite whetstone can read: expected skill-creator's evals\.json .*; found a "test_cases" list of \{"input", "expected_behavior"\}/],
    ['a cases list without triggers', '{"cases": [{"input": "i", "expected_behavior": "b"}]}', /evals\.json:1:11: not a suite .*found a "cases" list of \{"input", "expected_behavior"\}/],
    ['a list of strings', '["a", "b"]', /evals\.json:1:1: not a suite .*found a list of strings/],
    ['a number', '42', /evals\.json:1:1: not a suite .*found number values/],
    // issue 28: `evals` lists that are not skill-creator's, once each, never zod's per-entry lines.
    ['an evals list of {input, expected_behavior}', '{\n  "evals": [{"input": "i", "expected_behavior": "b"}, {"input": "j", "expected_behavior": "c"}]\n}', /evals\.json:2:12: not a suite whetstone can read: expected skill-creator's evals\.json .*; found a "evals" list of \{"input", "expected_behavior"\}$/],
    ['an evals list of strings', '{"evals": ["write a poem"]}', /evals\.json:1:11: not a suite .*found a "evals" list of strings$/],
    ['evals as an object', '{"evals": {"first": {"input": "i"}}}', /evals\.json:1:11: not a suite .*found "evals" holding an object \{"first"\}$/],
    ['a list of {query, expected}', '[{"query": "q", "expected": "yes"}]', /evals\.json:1:1: not a suite .*found a list of \{"query", "expected"\}$/],
    ['trigger_evals with neither side', '{"trigger_evals": {"positive": ["q"]}}', /evals\.json:1:19: not a suite .*found "trigger_evals" holding \{"positive"\}$/],
  ])('refuses an evals.json in another shape (%s) with where and what was expected', (_what, text, msg) => {
    const message = errorOf(() => loadSuite(skill(text))).message;
    expect(message).toMatch(msg);
    expect(message).not.toMatch(/expected string, received|invalid input/i);
  });
});

describe('safe ids from other formats', () => {
  it('turns numbers, text and scripts without Latin letters into safe, stable ids', () => {
    expect(safeIdFor(0, 'eval')).toBe('eval-0');
    expect(safeIdFor('Ocean Swim — Café', 'eval')).toBe('eval-ocean-swim-cafe');
    expect(safeIdFor('../../etc/passwd', 'eval')).toBe('eval-etc-passwd');
    const korean = safeIdFor('한국어 테스트', 'eval');
    expect(korean).toMatch(/^eval-[0-9a-f]{10}$/);
    expect(safeIdFor('한국어 테스트', 'eval')).toBe(korean);
    expect(slugify('x'.repeat(300)).length).toBeLessThanOrEqual(100);
    for (const id of [safeIdFor('x'.repeat(300), 'eval'), korean, safeIdFor(1.5, 'eval')]) expect(id).toMatch(SAFE_ID);
  });

  it('keeps ids unique when two originals slug alike', () => {
    const ids = new IdAllocator('eval');
    expect([ids.take('a b'), ids.take('a-b'), ids.take('A B')]).toEqual(['eval-a-b', 'eval-a-b-2', 'eval-a-b-3']);
  });
});
