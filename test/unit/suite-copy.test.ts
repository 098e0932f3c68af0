// The checked copy of a suite (src/config/suite-copy.ts): read back only while every file the suite's
// content hash covers is unchanged, by the same build and settings, and undamaged; otherwise the suite is
// read from its file, which reports its own problems. The copies here are made for small suites
// (minBytes: 1) so each case stays quick; the size threshold has a case of its own.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/config/suite.js';
import { loadSuiteRemembered, SUITE_COPY_MIN_BYTES, type SuiteCopyOptions } from '../../src/config/suite-copy.js';
import { ConfigError } from '../../src/core/errors.js';
import { tempDir, write } from '../support/cli.js';

function project(tasks = 6): { dir: string; suite: string; copies: SuiteCopyOptions } {
  const dir = tempDir('whet-suite-copy-');
  write(join(dir, 'schemas', 'answer.json'), JSON.stringify({ type: 'object', required: ['answer'] }));
  const lines = ['skill_id: copy-skill', 'version: "1.0"', 'description: a suite read twice', 'tasks:'];
  for (let i = 0; i < tasks; i++) {
    lines.push(`  - id: t${i}`, `    category: ${i % 2 ? 'odd' : 'even'}`, `    prompt: "Question ${i}"`);
    if (i === 0) lines.push('    split: holdout', '    timeout_seconds: 5');
    lines.push('    judges:', i % 3 === 0 ? '      - {type: json, schema: schemas/answer.json}' : '      - {type: contains, expected: ["OK"]}');
  }
  const suite = write(join(dir, 'tasks.yaml'), `${lines.join('\n')}\n`);
  return { dir, suite, copies: { dir: join(dir, 'state', 'cache', 'suites'), build: 'build-a', minBytes: 1 } };
}

async function remembered(file: string, copies: SuiteCopyOptions, timeout?: number) {
  const r = loadSuiteRemembered(file, timeout === undefined ? {} : { defaultTimeoutMs: timeout }, copies);
  await r.copy?.remember?.();
  return r;
}

describe('the checked copy of a suite', () => {
  it('is written after a clean load and read back as the same suite, judge lists shared as loading shares them', async () => {
    const { suite, copies } = project();
    const first = await remembered(suite, copies);
    expect(first.copy?.info).toMatchObject({ hit: false, why: 'absent' });
    expect(readdirSync(copies.dir)).toHaveLength(1);
    const second = await remembered(suite, copies);
    expect(second.copy?.info).toEqual({ hit: true, file: first.copy!.info.file });
    expect(second.suite).toEqual(loadSuite(suite));
    expect(second.suite.tasks[1]!.judges).toBe(second.suite.tasks[2]!.judges);
    expect(second.suite.tasks[0]!.judges).toBe(second.suite.tasks[3]!.judges);
    expect(second.suite.tasks[0]).toMatchObject({ split: 'holdout', timeoutMs: 5000 });
  });

  it('keeps the tasks as loaded, not as a run changed them afterwards (splits are assigned in place)', async () => {
    const { suite, copies } = project();
    const first = loadSuiteRemembered(suite, {}, copies);
    for (const t of first.suite.tasks) t.split = 'train';
    await first.copy!.remember!();
    const again = await remembered(suite, copies);
    expect(again.copy?.info.hit).toBe(true);
    expect(again.suite.tasks.map((t) => t.split)).toEqual(['holdout', undefined, undefined, undefined, undefined, undefined]);
  });

  it('is not used once the suite file changes', async () => {
    const { suite, copies } = project();
    await remembered(suite, copies);
    writeFileSync(suite, readFileSync(suite, 'utf8').replace('Question 4', 'Question four'));
    const r = await remembered(suite, copies);
    expect(r.copy?.info).toMatchObject({ hit: false, why: 'changed' });
    expect(r.suite.tasks[4]!.prompt).toBe('Question four');
    // …and the copy now made is of the edited file.
    expect((await remembered(suite, copies)).suite.tasks[4]!.prompt).toBe('Question four');
  });

  it('is not used once a fixture file changes, and a fixture that is gone is reported by the file', async () => {
    const { dir, suite, copies } = project();
    const before = await remembered(suite, copies);
    write(join(dir, 'schemas', 'answer.json'), JSON.stringify({ type: 'object', required: ['answer', 'why'] }));
    const edited = await remembered(suite, copies);
    expect(edited.copy?.info).toMatchObject({ hit: false, why: 'changed' });
    expect(edited.suite.contentHash).not.toBe(before.suite.contentHash);
    rmSync(join(dir, 'schemas', 'answer.json'));
    expect(() => loadSuiteRemembered(suite, {}, copies)).toThrow(ConfigError);
    expect(() => loadSuiteRemembered(suite, {}, copies)).toThrow(/file not found: schemas\/answer\.json/);
  });

  it('belongs to one build and one default timeout', async () => {
    const { suite, copies } = project();
    await remembered(suite, copies);
    expect((await remembered(suite, { ...copies, build: 'build-b' })).copy?.info).toMatchObject({ hit: false, why: 'another build of whetstone' });
    const other = await remembered(suite, { ...copies, build: 'build-b' }, 30_000);
    expect(other.copy?.info).toMatchObject({ hit: false, why: 'read with other settings' });
    expect(other.suite.tasks[1]!.timeoutMs).toBe(30_000);
    expect((await remembered(suite, { ...copies, build: 'build-b' }, 30_000)).copy?.info.hit).toBe(true);
  });

  it('is not used when damaged or cut short', async () => {
    const { suite, copies } = project();
    const first = await remembered(suite, copies);
    const file = first.copy!.info.file;
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace('Question 2', 'Question 9'));
    expect((await remembered(suite, copies)).copy?.info).toMatchObject({ hit: false, why: 'unreadable' });
    writeFileSync(file, good.slice(0, Math.floor(good.length / 2)));
    const cut = await remembered(suite, copies);
    expect(cut.copy?.info).toMatchObject({ hit: false, why: 'unreadable' });
    expect(cut.suite).toEqual(loadSuite(suite));
  });

  it('is bypassed when asked, with the reason, and made again', async () => {
    const { suite, copies } = project();
    await remembered(suite, copies);
    const r = await remembered(suite, { ...copies, bypass: 'bypassed (--force)' });
    expect(r.copy?.info).toMatchObject({ hit: false, why: 'bypassed (--force)' });
    expect((await remembered(suite, copies)).copy?.info.hit).toBe(true);
  });

  it('is kept only for suites large enough to be worth it, and never for the JSON formats', async () => {
    const { dir, suite, copies } = project();
    expect(readFileSync(suite).length).toBeLessThan(SUITE_COPY_MIN_BYTES);
    const { minBytes: _, ...byDefault } = copies;
    expect((await remembered(suite, byDefault)).copy).toBeUndefined();
    const evals = write(join(dir, 'evals.json'), JSON.stringify({ skill_name: 'copy-skill', evals: [{ id: 1, prompt: 'Say hi', expected_output: 'hi' }] }));
    expect((await remembered(evals, copies)).copy).toBeUndefined();
    expect(readdirSync(dir)).not.toContain('state');
  });
});

describe('whet prune and the checked copies', () => {
  it('removes copies written before the cutoff and keeps newer ones', async () => {
    const { prune } = await import('../../src/nightly/prune.js');
    const { utimesSync } = await import('node:fs');
    const { dir, suite, copies } = project();
    const r = await remembered(suite, copies);
    const fresh = write(join(copies.dir, `${'0'.repeat(32)}.suite`), 'a copy written just now\n');
    const old = new Date('2026-10-01T00:00:00Z');
    utimesSync(r.copy!.info.file, old, old);
    const state = join(dir, 'state');
    const now = new Date();
    const dry = prune(state, { olderThanMs: 30 * 86_400_000, cacheTtlMs: 7 * 86_400_000, now, dryRun: true });
    expect(dry.removed_cache).toEqual([`suites/${r.copy!.info.file.split('/').pop()}`]);
    expect(readdirSync(copies.dir)).toHaveLength(2);
    prune(state, { olderThanMs: 30 * 86_400_000, cacheTtlMs: 7 * 86_400_000, now, dryRun: false });
    expect(readdirSync(copies.dir)).toEqual([fresh.split('/').pop()]);
  });
});
