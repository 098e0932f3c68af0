// One count of a run's calls (issue 28 §4): every kind counted once, from where it is recorded, and the
// kinds add up to the sum the budget caps.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir, write } from '../support/cli.js';
import { callsText, runTotals, usedInRun } from '../../src/evaluation/run-usage.js';

const line = (extra: object) => JSON.stringify({ task_id: 't', attempt: 0, status: 'pass', engine_calls: 3, judge_calls: 2, usage: {}, ...extra });

describe('a run’s calls', () => {
  it('split into engine, judge and generator from the results logs, rankings, candidates and interrupted stages', () => {
    const run = tempDir();
    write(join(run, 'iter-001', 'results', 'baseline.jsonl'), `${line({})}\n${line({ attempt: 1 })}\n{"torn`);
    // The minibatch's results are counted like any log; the model judge only from ranking.json.
    write(join(run, 'iter-001', 'minibatch', 'results', 'cand-01.jsonl'), `${line({ judge_calls: undefined, engine_calls: 1 })}\n`);
    write(join(run, 'iter-001', 'ranking.json'), JSON.stringify({ llm_judge: { engine: 'x', engine_calls: 4, cost_usd: 0.4, errors: [] }, engine_calls: 5 }));
    // A log moved aside (measured on other content) was paid for too.
    write(join(run, 'iter-001', 'superseded', '2026-01-01T00-00-00-000Z-baseline.jsonl'), `${line({ judge_calls: 0, engine_calls: 2 })}\n`);
    write(join(run, 'iter-001', 'candidates.json'), JSON.stringify({ engine_calls: 2, cost_usd: 0.2 }));
    write(
      join(run, 'events.jsonl'),
      [
        { event: 'interrupted', stage: 'generate', engine_calls: 1, cost_usd: 0.1 },
        { event: 'interrupted', stage: 'discriminate', engine_calls: 7, llm_judge_calls: 3, llm_judge_cost_usd: 0.3 },
        { event: 'finished', stage: 'generate', engine_calls: 2 },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    const u = usedInRun(run);
    expect(u).toMatchObject({ engine: 2 + 1 + 2, judge: 4 + 4 + 3, generator: 2 + 1, calls: 19 });
    expect(u.engine + u.judge + u.generator).toBe(u.calls);
    expect(u.cost).toBeCloseTo(1.0, 9);
    const t = runTotals(run);
    expect(t.calls).toEqual({ engine: 5, judge: 11, generator: 3, total: 19 });
    expect(t.engine_calls).toBe(19);
    expect(callsText(t.calls)).toBe('19 call(s): engine 5 · judge 11 · generator 3');
  });

  it('an older run, whose lines did not keep the split, counts them whole as engine calls and says only the sum where no split was stored', () => {
    const run = tempDir();
    write(join(run, 'results', 'baseline.jsonl'), `${JSON.stringify({ task_id: 't', attempt: 0, engine_calls: 3 })}\n`);
    expect(usedInRun(run)).toMatchObject({ engine: 3, judge: 0, calls: 3 });
    expect(callsText(undefined, 9)).toBe('9 call(s) (engine, judge and generator; not split in this older run)');
  });
});
