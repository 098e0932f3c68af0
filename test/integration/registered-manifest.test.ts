// Issue 43: a loop run's run_started refers to the manifest it registered by hash instead of carrying it —
// it carried the whole manifest, each task's split included, into one event line — and the one copy a repair
// rebuilds a lost run.json from is registered.json, used only while it is the bytes run_started hashed.
// A run started before (the manifest in the line itself) is still rebuilt from the line.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleLoopProject, readJson, whet } from '../support/cli.js';

const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

describe('the registered manifest, kept once', () => {
  it('run_started names registered.json by hash, and repair rebuilds run.json only from those bytes', async () => {
    const dir = exampleLoopProject({ prefix: 'whet-registered-', loop: '{max_iterations: 1, candidates_per_iteration: 2, proposers: [structural]}' });
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const runId = readdirSync(join(dir, 'state/runs')).sort().pop()!;
    const runDir = join(dir, 'state/runs', runId);
    const kept = join(runDir, 'registered.json');
    const bytes = readFileSync(kept);
    const eventsFile = join(runDir, 'events.jsonl');
    const startedLine = readFileSync(eventsFile, 'utf8').split('\n').find((l) => l.includes('"run_started"'))!;
    const started = JSON.parse(startedLine) as Record<string, unknown>;
    expect(started['registered']).toBeUndefined();
    expect(started['registered_sha256']).toBe(sha(bytes));
    expect(startedLine.length).toBeLessThan(bytes.length);
    const original = readJson(join(runDir, 'run.json'));
    expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ run_id: runId, thresholds_sha256: original.thresholds_sha256, settings_sha256: original.settings_sha256 });

    // registered.json edited: not the bytes run_started named, so run.json is not rebuilt from it.
    rmSync(join(runDir, 'run.json'));
    writeFileSync(kept, bytes.toString('utf8').replace('"thresholds_sha256":"sha256:', '"thresholds_sha256":"sha256:0'));
    const refused = await whet(['verify', '--repair'], { cwd: dir });
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/run\.json not rebuilt: no registered manifest is left whole/);

    // The bytes restored: rebuilt, with the registered thresholds and settings.
    writeFileSync(kept, bytes);
    const repair = await whet(['verify', '--repair'], { cwd: dir });
    expect(repair.code, repair.stdout).toBe(0);
    expect(repair.stdout).toMatch(/run\.json rebuilt from the manifest registered when the run started/);
    expect(readJson(join(runDir, 'run.json'))).toMatchObject({ thresholds: original.thresholds, settings: original.settings, settings_sha256: original.settings_sha256 });

    // A run started before registered.json: the manifest in run_started's line itself.
    rmSync(join(runDir, 'run.json'));
    rmSync(kept);
    const old: Record<string, unknown> = { ...started, registered: JSON.parse(bytes.toString('utf8')) as unknown };
    delete old['registered_sha256'];
    writeFileSync(eventsFile, readFileSync(eventsFile, 'utf8').replace(startedLine, JSON.stringify(old)));
    const legacy = await whet(['verify', '--repair'], { cwd: dir });
    expect(legacy.stdout).toMatch(/run\.json rebuilt from the manifest registered when the run started/);
    expect(readJson(join(runDir, 'run.json'))).toMatchObject({ settings_sha256: original.settings_sha256 });
  }, 120_000);
});
