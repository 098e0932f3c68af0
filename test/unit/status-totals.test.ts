// `whet status` totals: calls, tokens in/out and cost over every results line of a run, judge calls included.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { formatStatus, listRuns } from '../../src/inspect/status.js';
import { tempDir, write } from '../support/cli.js';

describe('status totals', () => {
  it('show tokens in and out beside calls and cost, counting judge usage', () => {
    const state = tempDir();
    const run = join(state, 'runs', 'r1');
    const at = '2026-01-01T00:00:00.000Z';
    write(join(run, 'run.json'), JSON.stringify({ mode: 'standalone', status: 'completed', created_at: at, updated_at: at, target: { skill_path: 's' } }));
    const line = (extra: object) => JSON.stringify({ task_id: 't', attempt: 0, status: 'pass', engine_calls: 2, usage: { input_tokens: 100, output_tokens: 40, cost_usd: 0.5 }, ...extra });
    write(join(run, 'results', 'baseline.jsonl'), `${line({ judge_usage: { input_tokens: 7, output_tokens: 3, cost_usd: 0.25 } })}\n${line({ attempt: 1 })}\n`);
    const [r] = listRuns(state, new Date(at));
    expect(r!.totals).toEqual({ engine_calls: 4, cost_usd: 1.25, input_tokens: 207, output_tokens: 83 });
    expect(formatStatus([r!])).toMatch(/4 engine calls in all, tokens 207 in \/ 83 out, \$1\.2500/);
    // One count of engine calls per run, not a second one beside the verdict.
    expect(formatStatus([r!]).match(/engine calls/g)).toHaveLength(1);
  });
});
