// `whet status` totals: calls, tokens in/out and cost over every results line of a run, judge calls included.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { formatStatus, listRuns } from '../../src/inspect/status.js';
import { rmSync, writeFileSync } from 'node:fs';
import { copyExample, readJson, tempDir, whet, write } from '../support/cli.js';

describe('status totals', () => {
  it('show tokens in and out beside calls and cost, counting judge usage', async () => {
    const state = tempDir();
    const run = join(state, 'runs', 'r1');
    const at = '2026-01-01T00:00:00.000Z';
    write(join(run, 'run.json'), JSON.stringify({ mode: 'standalone', status: 'completed', created_at: at, updated_at: at, target: { skill_path: 's' } }));
    const line = (extra: object) => JSON.stringify({ task_id: 't', attempt: 0, status: 'pass', engine_calls: 2, usage: { input_tokens: 100, output_tokens: 40, cost_usd: 0.5 }, ...extra });
    write(join(run, 'results', 'baseline.jsonl'), `${line({ judge_calls: 1, judge_usage: { input_tokens: 7, output_tokens: 3, cost_usd: 0.25 } })}\n${line({ attempt: 1 })}\n`);
    const [r] = await listRuns(state, new Date(at));
    expect(r!.totals).toEqual({ engine_calls: 4, calls: { engine: 3, judge: 1, generator: 0, total: 4 }, cost_usd: 1.25, input_tokens: 207, output_tokens: 83 });
    expect(formatStatus([r!])).toMatch(/4 call\(s\): engine 3 · judge 1 · generator 0, tokens 207 in \/ 83 out, \$1\.2500/);
    // One count of calls per run, not a second one beside the verdict.
    expect(formatStatus([r!]).match(/call\(s\)/g)).toHaveLength(1);
  });

  it('a finished evaluation is summarised from run.json: the same totals and verdict, without reading its artifact or results', async () => {
    const dir = tempDir('whet-status-summary-');
    copyExample('release-notes', join(dir, 'release-notes'));
    const r = await whet(['evaluate', '--standalone', '--mock', '--task-suite', 'release-notes/tasks.yaml', '--skill-path', 'release-notes', '--state-root', 'state'], { cwd: dir });
    expect(r.code, r.stderr).toBeLessThanOrEqual(1);
    const state = join(dir, 'state');
    const [scanned] = await listRuns(state, new Date());
    const runDir = join(state, 'runs', scanned!.run_id);
    const manifest = readJson(join(runDir, 'run.json'));
    expect(manifest.summary).toMatchObject({ verdict: scanned!.verdict, engine_calls: scanned!.engine_calls, totals: scanned!.totals });
    const artifact = readJson(join(runDir, 'evaluation.json'));
    expect(manifest.summary).toMatchObject({ pass_rate: artifact.evaluation.pass_rate, passed: artifact.evaluation.passed, total_tasks: artifact.evaluation.total_tasks });
    // `whet show RUN` says how it ended and where the artifact is, from run.json alone.
    const shown = await whet(['show', scanned!.run_id, '--state-root', 'state'], { cwd: dir });
    expect(shown.code, shown.stderr).toBe(0);
    const e = artifact.evaluation as { pass_rate: number; passed: number; total_tasks: number };
    expect(shown.stdout).toContain(`verdict ${scanned!.verdict}: pass rate ${e.pass_rate.toFixed(4)} (${e.passed}/${e.total_tasks} tasks)`);
    // The same one count as status, from run.json's summary.
    expect(shown.stdout).toContain(`spent: ${scanned!.totals.engine_calls} call(s): engine ${scanned!.totals.calls.engine} · judge 0 · generator 0`);
    expect(shown.stdout).toContain(`evaluation: ${join(runDir, 'evaluation.json')}`);
    // Gone or torn, the big files are not what status reads for a finished run.
    writeFileSync(join(runDir, 'evaluation.json'), '{"torn');
    rmSync(join(runDir, 'results'), { recursive: true });
    const [summarised] = await listRuns(state, new Date());
    expect({ ...summarised, age_ms: 0 }).toEqual({ ...scanned, age_ms: 0 });
    expect(summarised!.verdict).toMatch(/^(pass|fail)$/);
  }, 60_000);
});
