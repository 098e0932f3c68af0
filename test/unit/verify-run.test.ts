// src/inspect/verify-run.ts and verify-state.ts (issue 31): the one check the read models and `whet verify`
// make. A standalone evaluation records its artifact and results log as a loop run does; an edited value
// that still parses is found by its hash, a line in the middle of a results log by its line, a file that
// no longer matches its schema at its `file:line:col`; and the shared files — the baseline cache and a
// stale lock — are checked and repaired too.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, readJson, tempDir, whet } from '../support/cli.js';
import { repairAdvice, verifyRun } from '../../src/inspect/verify-run.js';
import { verifyState } from '../../src/inspect/verify-state.js';

async function standalone() {
  const dir = tempDir('whet-verify-');
  copyExample('release-notes', join(dir, 'release-notes'));
  const r = await whet(['evaluate', '--standalone', '--mock', '--task-suite', 'release-notes/tasks.yaml', '--skill-path', 'release-notes', '--state-root', 'state'], { cwd: dir });
  expect(r.code, r.stderr).toBeLessThanOrEqual(1);
  const state = join(dir, 'state');
  const runId = readdirSync(join(state, 'runs'))[0]!;
  return { dir, state, runId, runDir: join(state, 'runs', runId) };
}

describe('verifying a state directory', () => {
  it('a standalone evaluation is recorded: clean as written, an edited pass rate is named as edited', async () => {
    const { state, runId, runDir } = await standalone();
    const events = readFileSync(join(runDir, 'events.jsonl'), 'utf8');
    expect(events).toMatch(/"event":"artifact_written","path":"evaluation\.json"/);
    expect(events).toMatch(/"event":"artifact_written","path":"results\/baseline\.jsonl","sha256":"sha256:[0-9a-f]{64}","bytes":\d+/);
    expect((await verifyRun(state, runId)).problems).toEqual([]);

    const file = join(runDir, 'evaluation.json');
    const e = readJson(file);
    writeFileSync(file, `${JSON.stringify({ ...e, evaluation: { ...e.evaluation, pass_rate: 1 } }, null, 2)}\n`);
    const check = await verifyRun(state, runId);
    expect(check.problems.map((p) => [p.kind, p.file.endsWith('evaluation.json')])).toEqual([['edited', true]]);
    expect(check.damaged.has(file)).toBe(true);
    // A standalone run is not resumed: its own whet evaluate command measures again what the repair moves aside.
    expect(check.problems[0]!.hint).toMatch(/then the same "whet evaluate" command resumes the run/);
    expect(repairAdvice(runId, check.problems)).toBe(`"whet verify --repair ${runId}", then the same "whet evaluate" command resumes the run and measures again what it moved to superseded/`);
    // show names it and leaves its numbers out; exit 1.
    const show = await whet(['show', runId, '--state-root', 'state'], { cwd: join(state, '..') });
    expect(show.code).toBe(1);
    expect(show.stdout).toMatch(/DAMAGED \S*evaluation\.json: edited/);
  }, 60_000);

  it('a garbage line inside a results log is named at its line; a schema mismatch at its file:line:col', async () => {
    const { state, runId, runDir } = await standalone();
    const log = join(runDir, 'results', 'baseline.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n');
    lines.splice(2, 0, '{"not": "a result"}');
    writeFileSync(log, lines.join('\n'));
    const manifest = join(runDir, 'run.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"mode": "standalone"', '"mode": "sideways"'));
    const { problems } = await verifyRun(state, runId, { schemas: true });
    const byKind = Object.fromEntries(problems.map((p) => [p.kind, p]));
    expect(byKind.garbage?.at).toMatch(/results\/baseline\.jsonl:3:1$/);
    expect(byKind.garbage?.message).toMatch(/line 3 is no task result/);
    expect(byKind.schema?.at).toMatch(/run\.json:\d+:\d+$/);
    expect(byKind.schema?.message).toMatch(/^run\.json does not match its schema: mode:/);
  }, 60_000);

  it('a line appended to a results log after its record is read in full: its hash covers only what was recorded', async () => {
    const { state, runId, runDir } = await standalone();
    const log = join(runDir, 'results', 'baseline.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    writeFileSync(log, `${readFileSync(log, 'utf8')}{"task_id": 7}\n`);
    const check = await verifyRun(state, runId);
    expect(check.problems.map((p) => [p.kind, p.file.endsWith('baseline.jsonl'), p.at?.replace(/^.*:(\d+):\d+$/, '$1')])).toEqual([['garbage', true, String(lines + 1)]]);
  }, 60_000);

  it('a lost run.json of a standalone run is named, and --repair says why it cannot rebuild it (exit 1)', async () => {
    const { dir, runId, runDir } = await standalone();
    rmSync(join(runDir, 'run.json'));
    const status = await whet(['status', '--state-root', 'state'], { cwd: dir });
    expect(status.code).toBe(1);
    expect(status.stdout).toContain(runId);
    expect(status.stdout).toMatch(/run\.json: missing/);
    const r = await whet(['verify', '--repair', '--state-root', 'state'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/NOT repaired \S+: runs\/\S+\/run\.json not rebuilt: a standalone evaluation keeps no manifest in its events/);
    expect(existsSync(join(runDir, 'run.json'))).toBe(false);
  }, 60_000);

  it('names a torn cache entry and a stale lock, and --repair moves the entry aside and sweeps the lock', async () => {
    const { dir, state } = await standalone();
    const cache = join(state, 'cache', 'baselines');
    const entry = join(cache, readdirSync(cache)[0]!);
    writeFileSync(entry, readFileSync(entry, 'utf8').slice(0, 100));
    mkdirSync(join(state, 'lock'));
    writeFileSync(join(state, 'lock', 'owner.json'), JSON.stringify({ pid: 999_999_999, host: (await import('node:os')).hostname(), command: 'whet run', since: new Date().toISOString() }));
    const { shared } = await verifyState(state);
    expect(shared.map((p) => p.kind).sort()).toEqual(['stale-lock', 'unparsable']);
    const r = await whet(['verify', '--repair', '--state-root', 'state'], { cwd: dir });
    expect(r.code, r.stdout).toBe(0);
    expect(existsSync(entry)).toBe(false);
    expect(readdirSync(join(state, 'cache', 'superseded')).some((f) => f.endsWith(entryName(entry)))).toBe(true);
    expect(existsSync(join(state, 'lock'))).toBe(false);
    expect((await verifyState(state)).shared).toEqual([]);
  }, 60_000);
});

const entryName = (p: string) => p.split('/').pop()!;
