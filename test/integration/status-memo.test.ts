// Issue 43: `whet status` verifies a loop run's files once and remembers them by size, time, inode and
// record (src/inspect/verified-memo.ts). A second status reads no file it verified clean and that is
// unchanged since; any change to a file (or to its record) makes it verified again; `whet verify` never
// trusts the memo.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLoopProject, readJson, whet } from '../support/cli.js';
import { VerifiedMemo } from '../../src/inspect/verified-memo.js';
import { readRecords, recordedPath } from '../../src/state/records-read.js';

describe('status remembers what it verified', () => {
  it('verifies once, re-verifies what changed, and leaves whet verify to check everything', async () => {
    const dir = exampleLoopProject({ prefix: 'whet-memo-', loop: '{max_iterations: 1, candidates_per_iteration: 2, proposers: [structural]}', thresholds: '{min_delta: 0, max_new_failures: 0}' });
    expect((await whet(['run'], { cwd: dir })).code).toBe(0);
    const state = join(dir, 'state');
    const runId = readdirSync(join(state, 'runs'))[0]!;
    const runDir = join(state, 'runs', runId);
    const memoFile = join(state, 'cache', 'verified', `${runId}.json`);

    const first = await whet(['status'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const files = readJson<{ files: Record<string, { verified: boolean; schemas: boolean; usage?: { calls: number } }> }>(memoFile).files;
    expect(files['iter-001/baseline.json']).toMatchObject({ verified: true, schemas: true });
    expect(files['iter-001/results/baseline.jsonl']).toMatchObject({ verified: true, schemas: true });
    // The results log's share of the spending is kept beside it, and status shows the same totals from it.
    expect(files['iter-001/results/baseline.jsonl']!.usage!.calls).toBeGreaterThan(0);
    const written = statSync(memoFile).mtimeMs;
    const second = await whet(['status'], { cwd: dir });
    expect(second.stdout.replace(/; \S+ ago/, '')).toBe(first.stdout.replace(/; \S+ ago/, ''));
    // Nothing new verified: the memo is not written again.
    expect(statSync(memoFile).mtimeMs).toBe(written);

    // An edit changes the file's size and time: verified again, and named.
    const baseline = join(runDir, 'iter-001', 'baseline.json');
    const bytes = readFileSync(baseline, 'utf8');
    writeFileSync(baseline, bytes.replace('"pass_rate": ', '"pass_rate":  '));
    const edited = await whet(['status'], { cwd: dir });
    expect(edited.code).toBe(1);
    expect(edited.stdout + edited.stderr).toMatch(/iter-001\/baseline\.json.*edited/);

    // The memo is what spares the reading: a file it says was verified clean as it is now is not read.
    const memo = VerifiedMemo.open(state, runId);
    memo.remember(baseline, memo.look(baseline), readRecords(runDir).hashes.get(recordedPath(runDir, baseline))?.sha256, true);
    memo.save();
    expect((await whet(['status'], { cwd: dir })).code).toBe(0);
    // whet verify hashes every file, every time.
    const verify = await whet(['verify'], { cwd: dir });
    expect(verify.code).toBe(1);
    expect(verify.stdout + verify.stderr).toMatch(/baseline\.json.*edited/);

    // Put back: verified again from the bytes, clean.
    writeFileSync(baseline, bytes);
    expect((await whet(['status'], { cwd: dir })).code).toBe(0);
    expect((await whet(['verify'], { cwd: dir })).code).toBe(0);
  }, 120_000);
});
