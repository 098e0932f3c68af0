import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { loadSuite } from '../../src/config/suite.js';
import { loadPipeline } from '../../src/config/pipeline.js';
import { tempDir, write, sharedDir, findFiles } from '../support/cli.js';
import { errorOf } from '../support/errors.js';

const head = 'skill_id: s\nversion: "1.0"\ntasks:\n';

describe('task suite loading', () => {
  it('loads every suite of the compat corpus unchanged', () => {
    const suites = findFiles(join(sharedDir, 'compat/auto-improvement-orchestrator'), 'task_suite.yaml');
    suites.push(...findFiles(join(sharedDir, 'compat/auto-improvement-orchestrator'), 'sample_task_suite.yaml'));
    expect(suites.length).toBe(8);
    for (const f of suites) {
      const s = loadSuite(f);
      expect(s.tasks.length).toBeGreaterThan(0);
      for (const t of s.tasks) expect(t.judges.length).toBe(1);
    }
  });

  it('fills defaults and reads the extensions', () => {
    const dir = tempDir();
    const f = write(
      join(dir, 'tasks.yaml'),
      head +
        '  - id: a\n    prompt: p\n    judge: {type: contains, expected: [x]}\n' +
        '  - id: b\n    prompt: q\n    category: fmt\n    split: holdout\n    negative: true\n    pass_k: 3\n    timeout_seconds: 5\n    cell: {intent: x}\n' +
        '    judges:\n      - {type: regex, pattern: "a+"}\n      - {type: not_contains, expected: [y]}\n',
    );
    const s = loadSuite(f, { defaultTimeoutMs: 9000 });
    expect(s.tasks[0]).toMatchObject({ id: 'a', category: 'uncategorized', negative: false, timeoutMs: 9000, split: undefined });
    expect(s.tasks[1]).toMatchObject({ id: 'b', category: 'fmt', split: 'holdout', negative: true, passK: 3, timeoutMs: 5000, cell: { intent: 'x' } });
    expect(s.tasks[1]!.judges.map((j) => j.type)).toEqual(['regex', 'not_contains']);
    expect(s.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it.each([
    ['malformed YAML', head + '  - id: a\n    prompt: [unclosed\n', /tasks\.yaml:\d+:\d+: invalid YAML/],
    ['a wrong type', head + '  - id: a\n    prompt: 3\n    judge: {type: contains, expected: [x]}\n', /tasks\.yaml:5:13 tasks\[0\]\.prompt: .*expected string/],
    ['an unknown judge', head + '  - id: a\n    prompt: p\n    judge: {type: containz, expected: [x]}\n', /tasks\.yaml:6:19 tasks\[0\]\.judge\.type: unknown type "containz"/],
    ['an unsafe id', head + '  - id: ../etc\n    prompt: p\n    judge: {type: contains, expected: [x]}\n', /tasks\.yaml:4:9 tasks\[0\]\.id: must be a safe file name/],
    ['an unknown key', head + '  - id: a\n    prompt: p\n    promt: q\n    judge: {type: contains, expected: [x]}\n', /tasks\.yaml:6:5 tasks\[0\]\.promt: unknown key "promt"/],
    ['a script judge without a command', head + '  - id: a\n    prompt: p\n    judge: {type: script}\n', /tasks\.yaml:6:12 tasks\[0\]\.judge\.command: required for a script judge/],
    ['no tasks', head.replace('tasks:\n', 'tasks: []\n'), /tasks: the suite has no tasks/],
    ['an empty expected list', head + '  - id: a\n    prompt: p\n    judge: {type: contains, expected: []}\n', /tasks\[0\]\.judge\.expected: must list at least one string/],
    ['a missing judge', head + '  - id: a\n    prompt: p\n', /tasks\.yaml:4:5 tasks\[0\]\.judge: a task needs a "judge"/],
    ['a bad regex', head + '  - id: a\n    prompt: p\n    judge: {type: regex, pattern: "a("}\n', /tasks\[0\]\.judge\.pattern: invalid regular expression/],
    ['a wrong version', 'skill_id: s\nversion: "2.0"\ntasks:\n  - id: a\n    prompt: p\n    judge: {type: contains, expected: [x]}\n', /tasks\.yaml:2:10 version: expected "1\.0" \(the seed's suite format\), got "2\.0"/],
  ])('reports %s at file:line:col with the field', (_name, text, pattern) => {
    const dir = tempDir();
    const f = write(join(dir, 'tasks.yaml'), text);
    expect(errorOf(() => loadSuite(f)).message).toMatch(pattern);
  });

  it('reports a duplicate id at the second use, naming the first line', () => {
    const dir = tempDir();
    const f = write(join(dir, 'tasks.yaml'), head + '  - id: a\n    prompt: p\n    judge: {type: contains, expected: [x]}\n  - id: a\n    prompt: q\n    judge: {type: contains, expected: [x]}\n');
    expect(errorOf(() => loadSuite(f)).message).toMatch(/tasks\.yaml:7:9 tasks\[1\]\.id: duplicate task id "a" \(first used at line 4\)/);
  });

  it('finds a bare pytest test_file in fixtures/ (the seed\'s layout), never outside the suite', () => {
    const dir = tempDir();
    write(join(dir, 's/fixtures/test_x.py'), 'def test_x(): pass\n');
    const ok = write(join(dir, 's/tasks.yaml'), head + '  - id: a\n    prompt: p\n    judge: {type: pytest, test_file: test_x.py}\n');
    expect(loadSuite(ok).tasks).toHaveLength(1);
    write(join(dir, 'y.py'), 'def test_y(): pass\n');
    const out = write(join(dir, 's/out.yaml'), head + '  - id: a\n    prompt: p\n    judge: {type: pytest, test_file: ../../y.py}\n');
    expect(errorOf(() => loadSuite(out)).message).toMatch(/test_file: "\.\.\/\.\.\/y\.py" is outside the suite's folder/);
    const missing = write(join(dir, 's/missing.yaml'), head + '  - id: a\n    prompt: p\n    judge: {type: pytest, test_file: test_nope.py}\n');
    expect(errorOf(() => loadSuite(missing)).message).toMatch(/file not found: test_nope\.py \(looked in .*, and in its fixtures\/\)/);
  });

  it('refuses fixtures outside the suite folder and missing fixtures', () => {
    const dir = tempDir();
    const out = write(join(dir, 's/tasks.yaml'), head + '  - id: a\n    prompt: p\n    judge: {type: pytest, test_file: ../x.py}\n');
    write(join(dir, 'x.py'), 'def test_x(): pass\n');
    expect(errorOf(() => loadSuite(out)).message).toMatch(/tasks\[0\]\.judge\.test_file: "\.\.\/x\.py" is outside the suite's folder/);
    const missing = write(join(dir, 'm/tasks.yaml'), head + '  - id: a\n    prompt: p\n    judge: {type: pytest, test_file: fixtures/test_none.py}\n');
    expect(errorOf(() => loadSuite(missing)).message).toMatch(/file not found: fixtures\/test_none\.py/);
  });

  it('refuses empty files, binary junk and missing files', () => {
    const dir = tempDir();
    expect(errorOf(() => loadSuite(write(join(dir, 'e.yaml'), '  \n'))).message).toMatch(/e\.yaml:1:1: task suite is empty/);
    const junk = join(dir, 'j.yaml');
    writeFileSync(junk, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff]));
    expect(errorOf(() => loadSuite(junk)).message).toMatch(/j\.yaml:1:1: task suite is not a text file/);
    expect(errorOf(() => loadSuite(join(dir, 'none.yaml'))).message).toMatch(/none\.yaml: cannot read task suite: file not found/);
  });

  it('changes the content hash when a named fixture file changes', () => {
    const dir = tempDir();
    const f = write(join(dir, 'tasks.yaml'), head + '  - id: a\n    prompt: p\n    judge: {type: pytest, test_file: fixtures/test_a.py}\n');
    write(join(dir, 'fixtures/test_a.py'), 'def test_a(): pass\n');
    const before = loadSuite(f).contentHash;
    write(join(dir, 'fixtures/test_a.py'), 'def test_a(): assert False\n');
    expect(loadSuite(f).contentHash).not.toBe(before);
  });
});

describe('pipeline config loading', () => {
  it('uses defaults when there is no pipeline.yaml, and parses durations once', async () => {
    const dir = tempDir();
    const none = await loadPipeline(undefined, dir);
    expect(none).toMatchObject({ passK: 1, evalThreshold: 6, baselineMinPassRate: 0.2, cacheTtlMs: 7 * 86_400_000, engine: undefined });
    write(join(dir, 'pipeline.yaml'), 'engine: {type: mock, latency_ms: 5}\ncache: {ttl: 12h}\nevaluate: {task_timeout: 90s}\n');
    const cfg = await loadPipeline(undefined, dir);
    expect(cfg).toMatchObject({ cacheTtlMs: 12 * 3_600_000, taskTimeoutMs: 90_000, engine: { type: 'mock', latency_ms: 5 } });
  });

  it('reports a bad duration and an unknown engine type with their location', async () => {
    const dir = tempDir();
    write(join(dir, 'p.yaml'), 'cache:\n  ttl: soon\n');
    await expect(loadPipeline('p.yaml', dir)).rejects.toThrow(/p\.yaml:2:8 cache\.ttl: "soon" is not a duration/);
    write(join(dir, 'q.yaml'), 'engine:\n  type: gpt\n');
    await expect(loadPipeline('q.yaml', dir)).rejects.toThrow(/q\.yaml:2:9 engine\.type: unknown type "gpt"/);
  });

  it('reports each unknown key where it is written, with its path', async () => {
    const dir = tempDir();
    write(join(dir, 'p.yaml'), 'concurrency: 4\nevaluate:\n  pass_k: 1\n  foo: 1\n  bar: 2\n');
    const lines = ((await loadPipeline('p.yaml', dir).catch((e: Error) => e)) as Error).message.split('\n').map((l: string) => l.replace(`${dir}/`, ''));
    expect(lines.sort()).toEqual(['p.yaml:1:1 concurrency: unknown key "concurrency"', 'p.yaml:4:3 evaluate.foo: unknown key "foo"', 'p.yaml:5:3 evaluate.bar: unknown key "bar"']);
  });

  it('refuses a named config that does not exist', async () => {
    await expect(loadPipeline('nope.yaml', tempDir())).rejects.toThrow(/nope\.yaml: cannot read pipeline config: file not found/);
  });

  it('checks a judge list shared by many tasks at each of them: every fixture hashed where named, every problem reported where written', () => {
    const dir = tempDir();
    const schema = '{"type":"object"}';
    write(join(dir, 'schemas/a.json'), schema);
    const task = (i: number, judges: string) => `  - id: t${i}\n    prompt: p${i}\n    judges:\n${judges}`;
    const shared = '      - {type: json, schema: schemas/a.json}\n      - {type: contains, expected: ["x"]}\n';
    const text = head + [0, 1, 2].map((i) => task(i, shared)).join('');
    const f = write(join(dir, 'tasks.yaml'), text);
    // The rule (suite.ts withFixtures): the suite's bytes, then each named fixture in order, once per naming.
    const expected = createHash('sha256').update(text);
    for (let i = 0; i < 3; i++) expected.update('\0schemas/a.json\0').update(schema);
    expect(loadSuite(f).contentHash).toBe(`sha256:${expected.digest('hex')}`);
    const broken = write(join(dir, 'broken.yaml'), head + [0, 1, 2].map((i) => task(i, '      - {type: json, schema: schemas/none.json}\n')).join(''));
    const lines = errorOf(() => loadSuite(broken)).message.split('\n').filter((l) => /file not found/.test(l));
    expect(lines.map((l) => /tasks\[(\d)\]\.judges\[0\]\.schema/.exec(l)?.[1])).toEqual(['0', '1', '2']);
  });
});
