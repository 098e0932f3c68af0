// `evaluate.shards: N` in a loop run (issue 16): the run stops at the shard handoff, status names the
// missing shards, three shards run as separate processes (`whet evaluate --run R --shard i/3`), and
// `whet resume` merges them and goes on to a gate that decides exactly as in an unsharded run.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyExample, repoRoot, tempDir, whet, write } from '../support/cli.js';

const cli = join(repoRoot, 'dist/src/cli.js');

function project(shards: number): string {
  const dir = tempDir('whet-shard-loop-');
  copyExample('release-notes', join(dir, 'release-notes'));
  write(
    join(dir, 'pipeline.yaml'),
    `state_dir: state
engine: {type: mock}
targets: [{skill: release-notes, suite: release-notes/tasks.yaml}]
loop: {max_iterations: 1, plateau_window: 2, candidates_per_iteration: 3, proposers: [feedback, structural]}
thresholds: {min_delta: 0, max_new_failures: 0}
evaluate: {concurrency: 2, pass_k: 2${shards > 1 ? `, shards: ${shards}` : ''}}
`,
  );
  return dir;
}

const iterOf = (dir: string) => join(dir, 'state/runs', readdirSync(join(dir, 'state/runs'))[0]!, 'iter-001');
const json = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, any>;

/** What the gate decided and on what numbers, without paths, times and ids. */
function decided(dir: string) {
  const gate = json(join(iterOf(dir), 'gate.json'));
  const ev = json(join(iterOf(dir), 'evaluation.json'));
  const { cache: _c, baseline_cache: _b, candidate_cache: _cc, candidate, baseline, ...evaluation } = ev.evaluation;
  // engine_calls is cost, not a measurement: unsharded, the baseline is a cache hit from the iteration's
  // start (0 calls); the shards measure their share of it again (docs/guides/ci-and-scale-out.md "Sharding across machines").
  const strip = ({ wall_ms: _w, latency_ms: _l, resumed_attempts: _r, engine_calls: _e, concurrency: _k, cpu_ms: _u, ...rest }: Record<string, unknown>) => rest;
  return {
    decision: gate.decision,
    checks: gate.checks.map((c: { id: string; passed: boolean }) => [c.id, c.passed]),
    evaluation: { ...evaluation, candidate: strip(candidate), baseline: strip(baseline) },
    candidate_results: ev.candidate_results,
    baseline_results: ev.baseline_results,
    next: [ev.next_step, ev.next_owner],
  };
}

describe('evaluate.shards in a loop run', () => {
  it('stops at the handoff, takes three shard processes, and resume gates exactly as unsharded', async () => {
    const plain = project(1);
    expect((await whet(['run'], { cwd: plain })).code).toBe(0);

    const dir = project(3);
    const run = await whet(['run'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/evaluate handed over to shards: none in yet; missing 1\/3, 2\/3, 3\/3/);
    const runId = readdirSync(join(dir, 'state/runs'))[0]!;
    const plan = json(join(iterOf(dir), 'shard-plan.json'));
    expect(plan).toMatchObject({ next_step: 'evaluate_shards', next_owner: 'shards', total: 3 });
    expect(plan.commands).toHaveLength(3);

    for (const i of [1, 2, 3]) {
      const p = spawnSync(process.execPath, [cli, 'evaluate', '--run', runId, '--shard', `${i}/3`, '--state-root', 'state'], { cwd: dir, encoding: 'utf8' });
      expect(p.status, p.stderr).toBe(0);
      if (i === 2) {
        // Status shows which shards are in and which are missing; resume before the last one waits.
        const s = await whet(['status'], { cwd: dir });
        expect(s.stdout).toMatch(/1\/3, 2\/3 in; missing 3\/3/);
        // A run waiting on its shards is not damage (issue 31).
        expect(s.code, s.stdout).toBe(0);
        const early = await whet(['resume', runId], { cwd: dir });
        expect(early.stdout).toMatch(/missing 3\/3/);
      }
    }
    const resumed = await whet(['resume', runId], { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/merging 3 shard directories/);
    expect(decided(dir)).toEqual(decided(plain));
    expect(decided(dir).next).toEqual(['gate_decision', 'gate']);
    const verified = await whet(['verify'], { cwd: dir });
    expect(verified.code, verified.stdout).toBe(0);
  }, 180_000);
});
