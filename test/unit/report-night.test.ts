// The report's nightly pieces without a state directory: which night names a run, the night-vs-night
// counts recovered from a drift record, and the target key a run outside `whet nightly` is matched by.
import { describe, expect, it } from 'vitest';
import { targetKey } from '../../src/config/targets.js';
import { buildReportModel } from '../../src/report/model.js';
import { nightlyOf, nightOfRun, runTargetKeys } from '../../src/report/model-night.js';
import { historyLine, inputs, standalone, result } from '../fixtures/report/artifacts.js';

const drift = (over: Record<string, unknown> = {}) => ({
  compared_with: '2026-11-01 (run-a)',
  tasks_compared: 6,
  fixes: ['f1'],
  regressions: ['r1', 'r2'],
  p_value: 1,
  pass_rate_change: -0.1667,
  // before: 4 of 4 in x (so both pass = 4 − 2 regressed), 0 of 2 in y.
  per_category: { x: { tasks: 4, before: 1, after: 0.5, change: -0.5 }, y: { tasks: 2, before: 0, after: 0.5, change: 0.5 }, z: { tasks: 0, before: null, after: null, change: null } },
  critical_failures: [],
  engine_failed: false,
  changed: { skill: false, suite: false, engine: true, judge_engine: false, settings: [] },
  cause: 'engine changed, skill and suite unchanged',
  alert: false,
  reasons: [],
  ...over,
});
const day = (file: string, targets: Record<string, unknown>[]) => ({ file, json: { date: file.slice(0, 10), targets } });

describe('the night of a run', () => {
  it('takes the newest night that names the run and recovers every cell of the paired table', () => {
    const days = [day('2026-11-02.json', [{ run_id: 'r', target: '/s', target_key: 'k2', label: '/s', drift: drift() }]), day('2026-11-01.json', [{ run_id: 'r', target: '/s', target_key: 'k1', drift: drift({ tasks_compared: 0 }) }])];
    const n = nightlyOf(nightOfRun(days, 'r'));
    expect(n).toMatchObject({ date: '2026-11-02', target_key: 'k2', tasks_compared: 6, both_pass: 2, fixed: 1, regressed: 2, both_fail: 1, cause: 'engine changed, skill and suite unchanged' });
    expect(nightlyOf(nightOfRun(days, 'other'))).toBeNull();
  });

  it('computes a run’s target key the way targets.ts does when no night names it', () => {
    const manifest = { target: { skill_path: '/sk/demo/SKILL.md' }, suite: { path: '/sk/demo/tasks.yaml' } };
    expect(runTargetKeys(manifest, null)).toEqual([targetKey('/sk/demo', '/sk/demo/tasks.yaml', undefined)]);
  });

  it('trends by target key, and drops keyless lines when the run’s night measured its skill two ways', () => {
    const key = targetKey('/skills/demo', '/skills/demo/tasks.yaml', undefined);
    const manifest = { run_id: 'run-n', mode: 'standalone', target: { skill_path: '/skills/demo/SKILL.md' }, suite: { path: '/skills/demo/tasks.yaml' } };
    const history = [
      historyLine('2026-10-30', '/skills/demo', 1, 1),
      { ...historyLine('2026-11-01', '/skills/demo', 3, 1), target_key: key },
      { ...historyLine('2026-11-01', '/skills/demo', 0, 5), target_key: 'other-suite' },
    ];
    const evaluation = standalone([result('t', 'x', 'pass')]);
    const alone = buildReportModel(inputs({ manifest, evaluation, history }));
    expect(alone.trend.points.map((p) => [p.label, p.passed])).toEqual([['2026-10-30', 1], ['2026-11-01', 3]]);
    const two = [{ run_id: 'run-n', target: '/skills/demo', target_key: key, drift: drift() }, { run_id: 'run-o', target: '/skills/demo', target_key: 'other-suite', drift: drift() }];
    const m = buildReportModel(inputs({ manifest, evaluation, history, nights: [day('2026-11-01.json', two)] }));
    expect(m.trend.points.map((p) => [p.label, p.passed])).toEqual([['2026-11-01', 3]]);
    expect(m.nightly?.target_key).toBe(key);
  });
});
