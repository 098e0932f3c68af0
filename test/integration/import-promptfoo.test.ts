// `whet import promptfoo`: a promptfoo config with supported and unsupported assertions becomes a suite
// that loads and runs; every assertion not carried over is listed with its place and marked in the suite.
import { describe, expect, it } from 'vitest';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSuite } from '../../src/config/suite.js';
import { mapAssertion } from '../../src/import/promptfoo-asserts.js';
import { repoRoot, tempDir, whet, write } from '../support/cli.js';

function project(): string {
  const dir = tempDir();
  cpSync(join(repoRoot, 'test/fixtures/promptfoo'), dir, { recursive: true });
  return dir;
}

describe('whet import promptfoo', () => {
  it('writes a suite that loads: vars substituted, assertions mapped, the unsupported ones listed with their place', async () => {
    const dir = project();
    const r = await whet(['import', 'promptfoo', 'promptfooconfig.yaml'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote tasks\.yaml: 6 task\(s\) from 3 test\(s\) × 2 prompt\(s\)/);
    expect(r.stderr).toMatch(/promptfooconfig\.yaml:26:9 tests\[0\]\.assert\[3\]: assertion type "javascript" has no whetstone judge — task test-groups-the-changes-p1, test-groups-the-changes-p2 marked promptfoo-partial/);
    expect(r.stderr).toMatch(/promptfooconfig\.yaml:37:9 tests\[1\]\.assert\[2\]: assertion type "similar"/);
    expect(r.stderr).toMatch(/promptfooconfig\.yaml:45:9 tests\[2\]\.assert\[0\]: assertion type "python"/);

    const suite = loadSuite(join(dir, 'tasks.yaml'));
    expect(suite.skillId).toBe('release-notes-writer');
    const [first, second] = suite.tasks;
    expect(first).toMatchObject({ id: 'test-groups-the-changes-p1', prompt: 'Write release notes for v2.0 covering: fix login, add export', category: 'promptfoo-partial' });
    // defaultTest's vars reach the file prompt; its assertion comes first in every test.
    expect(second!.prompt).toBe('You write release notes for Whetstone v2.0.\nChanges: fix login, add export\n');
    expect(first!.judges).toEqual([
      { type: 'not_contains', expected: ['as an ai language model'], case_sensitive: false },
      { type: 'contains', expected: ['v2.0'], case_sensitive: true },
      { type: 'regex', pattern: 'fixes|bug fixes', flags: 'i' },
      { type: 'regex', pattern: '^#+ ' },
    ]);
    expect(suite.tasks[2]!.judges).toEqual([
      { type: 'not_contains', expected: ['as an ai language model'], case_sensitive: false },
      { type: 'json' },
      { type: 'llm-rubric', rubric: 'Mentions that Python 3.8 support was removed', pass_threshold: 0.8 },
    ]);
    const text = readFileSync(join(dir, 'tasks.yaml'), 'utf8');
    expect(text).toMatch(/# promptfoo tests\[0\]\.assert\[3\] at promptfooconfig\.yaml:26:9: assertion type "javascript"/);
    expect(text).not.toMatch(/[&*]a\d/);
    // The imported suite runs.
    write(join(dir, 'skill/SKILL.md'), '# Release notes\nList every change under a heading.\n');
    const ev = await whet(['evaluate', '--standalone', '--task-suite', 'tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', '--mock', '--json'], { cwd: dir });
    expect(JSON.parse(ev.stdout).evaluation.total_tasks).toBe(6);
  });

  it('writes a test with no mappable assertion out commented and lists it, never dropping it silently', async () => {
    const dir = tempDir();
    write(join(dir, 'pf.yaml'), 'prompts: ["Say {{word}}"]\ntests:\n  - vars: {word: hi}\n    assert:\n      - {type: icontains, value: "{{word}}"}\n  - vars: {word: bye}\n    assert:\n      - {type: javascript, value: "output === 1"}\n      - {type: not-equals, value: x}\n');
    const r = await whet(['import', 'promptfoo', 'pf.yaml', '-o', 'out/suite.yaml'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/pf\.yaml:8:9 tests\[1\]\.assert\[0\]: assertion type "javascript" has no whetstone judge — test not imported \(no judge left\)/);
    expect(r.stderr).toMatch(/pf\.yaml:9:9 tests\[1\]\.assert\[1\]: not-equals has no whetstone judge/);
    expect(r.stderr).toMatch(/1 test\(s\) had no assertion whetstone can judge: written commented out/);
    const suite = loadSuite(join(dir, 'out/suite.yaml'));
    expect(suite.tasks.map((t) => [t.id, t.prompt])).toEqual([['test-0', 'Say hi']]);
    expect(suite.tasks[0]!.judges).toEqual([{ type: 'contains', expected: ['hi'], case_sensitive: false }]);
    const text = readFileSync(join(dir, 'out/suite.yaml'), 'utf8');
    expect(text).toMatch(/# UNMAPPED test 1 \(.*pf\.yaml:6:5\)/);
    expect(text).toMatch(/#\s+prompt: Say bye/);
  });

  it('refuses what it cannot import: an existing output, tests from a file, no judgeable test', async () => {
    const dir = project();
    write(join(dir, 'tasks.yaml'), 'mine\n');
    const kept = await whet(['import', 'promptfoo', 'promptfooconfig.yaml'], { cwd: dir });
    expect(kept.code).toBe(2);
    expect(kept.stderr).toMatch(/tasks\.yaml exists; pass --force/);
    expect(readFileSync(join(dir, 'tasks.yaml'), 'utf8')).toBe('mine\n');
    expect((await whet(['import', 'promptfoo', 'promptfooconfig.yaml', '--force'], { cwd: dir })).code).toBe(0);

    write(join(dir, 'file-tests.yaml'), 'prompts: [p]\ntests: file://tests.csv\n');
    const fromFile = await whet(['import', 'promptfoo', 'file-tests.yaml', '-o', 'a.yaml'], { cwd: dir });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toMatch(/file-tests\.yaml:2:8 tests: tests loaded from a file are not imported/);
    write(join(dir, 'none.yaml'), 'prompts: [p]\ntests:\n  - assert: [{type: javascript, value: "1"}]\n');
    const none = await whet(['import', 'promptfoo', 'none.yaml', '-o', 'b.yaml'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/nothing to import/);
    expect(existsSync(join(dir, 'b.yaml'))).toBe(false);
  });

  it('maps each supported type with promptfoo\'s case rules', () => {
    const id = (s: string) => s;
    expect(mapAssertion({ type: 'icontains-all', value: ['a', 'b'] }, id)).toEqual({ judge: { type: 'contains', expected: ['a', 'b'], case_sensitive: false } });
    expect(mapAssertion({ type: 'contains-any', value: ['a.b', 'c'] }, id)).toEqual({ judge: { type: 'regex', pattern: 'a\\.b|c' } });
    expect(mapAssertion({ type: 'not-contains-any', value: ['x'] }, id)).toEqual({ judge: { type: 'not_contains', expected: ['x'], case_sensitive: true } });
    expect(mapAssertion({ type: 'starts-with', value: 'Hi (' }, id)).toEqual({ judge: { type: 'regex', pattern: '^Hi \\(' } });
    expect(mapAssertion({ type: 'not-regex', value: '\\d' }, id)).toEqual({ judge: { type: 'regex', pattern: '\\d', negate: true } });
    expect(mapAssertion({ type: 'equals', value: 'ok' }, id)).toEqual({ judge: { type: 'equals', expected: 'ok', case_sensitive: true, trim: false } });
    expect(mapAssertion({ type: 'is-json', value: { type: 'object' } }, id)).toEqual({ judge: { type: 'json', schema: { type: 'object' } } });
    expect(mapAssertion({ type: 'contains', value: 'x', transform: 'output.trim()' }, id)).toEqual({ unsupported: expect.stringMatching(/transform/) });
    expect(mapAssertion({ type: 'regex', value: '(' }, id)).toEqual({ unsupported: expect.stringMatching(/does not compile/) });
    expect(mapAssertion({ type: 'not-contains-all', value: ['a'] }, id)).toEqual({ unsupported: expect.stringMatching(/no whetstone judge/) });
  });
});
