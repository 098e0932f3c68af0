// `whet show` and `whet diff` on a real loop run (mock engine) that stopped by plateau: its last iteration
// has no gate, and the structural proposer's candidate id recurs across iterations — the shapes a real
// run ends in, which show and diff must still reach.
import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLoopProject, readJson, whet } from '../support/cli.js';

let dir = '';
let runId = '';
const iterDir = (n: number) => join(dir, 'state/runs', runId, `iter-${String(n).padStart(3, '0')}`);
const has = (n: number, f: string) => readdirSync(iterDir(n)).includes(f);

beforeAll(async () => {
  dir = exampleLoopProject({
    prefix: 'whet-inspect-',
    loop: '{max_iterations: 4, plateau_window: 2, candidates_per_iteration: 3, proposers: [feedback, structural]}',
    thresholds: '{min_delta: 0, max_new_failures: 0}',
    evaluate: '{concurrency: 2}',
  });
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  runId = readdirSync(join(dir, 'state/runs')).sort().pop()!;
}, 60_000);

const iterCount = () => readdirSync(join(dir, 'state/runs', runId)).filter((d) => d.startsWith('iter-')).length;

describe('whet show RUN STAGE', () => {
  it('shows the newest gate there is when the last iteration has none, saying which iteration', async () => {
    const last = iterCount();
    expect(has(last, 'gate.json')).toBe(false);
    const gated = [...Array(last).keys()].map((i) => i + 1).filter((n) => has(n, 'gate.json'));
    const newest = gated[gated.length - 1]!;
    const r = await whet(['show', runId, 'gate'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`(iteration ${newest}: the newest with a gate.json; the run has ${last})`);
    expect(r.stdout).toMatch(new RegExp(`iteration ${newest}:\\n  gate: (KEEP|REJECT) `));
    const json = await whet(['show', runId, 'gate', '--json'], { cwd: dir });
    expect(JSON.parse(json.stdout).iteration).toBe(newest);
    // An explicit iteration without one is still refused, naming the iterations that have one.
    const missing = await whet(['show', runId, 'gate', '--iteration', String(last)], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no gate.json in iteration ${last}; iteration(s) with one: ${gated.join(', ')}`);
    expect((await whet(['show', runId, 'gate', '--iteration', 'two'], { cwd: dir })).code).toBe(2);
  });

  it('shows each candidate with its title, category, risk, rationale, actions and the signal it answers', async () => {
    const art = readJson(join(iterDir(1), 'candidates.json'));
    const r = await whet(['show', runId, 'generate', '--iteration', '1'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    for (const c of art.candidates) {
      expect(r.stdout).toContain(`${c.id}: ${c.title}\n  category ${c.category}, risk ${c.risk}, proposer ${c.proposer}`);
      expect(r.stdout).toContain(`  rationale: ${c.rationale}`);
      expect(r.stdout).toContain(`  answers: ${c.answers.kind === 'train_failures' ? 'train failures' : c.answers.kind}`);
      expect(r.stdout).toContain(`    1. ${c.actions[0].type} `);
    }
    const fb = art.candidates.find((c: any) => c.answers.kind === 'train_failures');
    expect(fb).toBeDefined();
    expect(r.stdout).toContain(`tasks ${fb.answers.tasks.join(', ')}`);
  });
});

describe('whet diff RUN CAND', () => {
  const recurring = () => {
    const ids = (n: number) => readJson(join(iterDir(n), 'candidates.json')).candidates.map((c: any) => c.id as string);
    const seen = new Map<string, number[]>();
    for (let n = 1; n <= iterCount(); n++) for (const id of ids(n)) seen.set(id, [...(seen.get(id) ?? []), n]);
    const [id, its] = [...seen].find(([, v]) => v.length > 1)!;
    return { id, its };
  };

  it('reaches a candidate id that recurs across iterations with --iteration, newest by default, and says which', async () => {
    const { id, its } = recurring();
    const [first, newest] = [its[0]!, its[its.length - 1]!];
    const diffOf = (n: number) => readJson(join(iterDir(n), 'candidates.json')).candidates.find((c: any) => c.id === id).diff as string;
    // The keep of iteration 1 changed the target, so the same edit has a different diff later.
    expect(diffOf(first)).not.toBe(diffOf(newest));
    const byDefault = await whet(['diff', runId, id], { cwd: dir });
    expect(byDefault.code, byDefault.stderr).toBe(0);
    expect(byDefault.stdout).toBe(diffOf(newest));
    expect(byDefault.stderr).toContain(`${id} of iteration ${newest} (also in iteration(s) ${its.filter((n) => n !== newest).join(', ')}`);
    const older = await whet(['diff', runId, id, '--iteration', String(first), '--json'], { cwd: dir });
    expect(older.code, older.stderr).toBe(0);
    expect(JSON.parse(older.stdout)).toMatchObject({ run: runId, iteration: first, iterations: its, id, diff: diffOf(first) });
  });

  it('refuses an iteration without that candidate, naming the ones that have it', async () => {
    const { id, its } = recurring();
    const r = await whet(['diff', runId, id, '--iteration', '99'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no candidate "${id}" in run ${runId} iteration 99; it is in iteration(s) ${its.join(', ')}`);
  });
});
