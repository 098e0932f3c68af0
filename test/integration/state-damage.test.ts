// Issue 31: state damage is found and said. On a finished loop run (iteration 1 keeps, iteration 2 rejects),
// the damages — evaluation.json cut in half, gate.json edited from reject to keep, run.json deleted,
// a results log cut mid-line, a garbage line appended to events.jsonl — are each named by file in
// `whet status`, `whet show` and `whet report` (exit 1), none of the damaged values is shown as a result,
// `whet verify` finds all of them, and `whet verify --repair` + `whet resume` bring the run back to the
// decisions and the skill of the undamaged run.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLoopProject, readJson, whet } from '../support/cli.js';

const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');

async function finishedRun() {
  const dir = exampleLoopProject({
    prefix: 'whet-damage-',
    loop: '{max_iterations: 2, plateau_window: 3, candidates_per_iteration: 3, proposers: [feedback, structural]}',
    thresholds: '{min_delta: 0, max_new_failures: 0}',
  });
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const runId = readdirSync(join(dir, 'state/runs')).sort().pop()!;
  const runDir = join(dir, 'state/runs', runId);
  const iter = (n: number) => join(runDir, `iter-${String(n).padStart(3, '0')}`);
  return { dir, runId, runDir, iter, skill: join(dir, 'release-notes/SKILL.md') };
}

/** Each iteration's gate decision as gate.json holds it, and the skill's hash. */
function outcome(runDir: string, skill: string) {
  const its = readdirSync(runDir).filter((d) => /^iter-\d+$/.test(d)).sort();
  const gate = (i: string) => (existsSync(join(runDir, i, 'gate.json')) ? readJson(join(runDir, i, 'gate.json')) : undefined);
  return { gates: its.map((i) => `${i} ${gate(i)?.candidate_id ?? '-'} ${gate(i)?.decision ?? '-'}`), skill: sha(skill) };
}

const cutInHalf = (f: string) => writeFileSync(f, readFileSync(f).subarray(0, Math.floor(readFileSync(f).length / 2)));

describe('state damage is found and said', () => {
  it('names the five damages in status, show and report, verify finds them, and repair + resume restores the decisions', async () => {
    const { dir, runId, runDir, iter, skill } = await finishedRun();
    const want = outcome(runDir, skill);
    expect(want.gates.map((g) => g.split(' ').pop())).toEqual(['keep', 'reject']);
    expect((await whet(['verify'], { cwd: dir })).code).toBe(0);
    const clean = await whet(['status'], { cwd: dir });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('decisions 1:keep 2:reject');

    cutInHalf(join(iter(2), 'evaluation.json'));
    const gate = join(iter(2), 'gate.json');
    writeFileSync(gate, readFileSync(gate, 'utf8').replaceAll('"reject"', '"keep"'));
    rmSync(join(runDir, 'run.json'));
    const results = readdirSync(join(iter(2), 'results')).find((f) => f.endsWith('.jsonl') && !f.startsWith('baseline'))!;
    const log = join(iter(2), 'results', results);
    writeFileSync(log, readFileSync(log).subarray(0, readFileSync(log).length - 30));
    appendFileSync(join(runDir, 'events.jsonl'), 'this line is garbage\n');

    const named = [
      [/events\.jsonl:\d+:1: garbage: events\.jsonl line \d+ is not JSON/],
      [/run\.json: missing: run\.json is missing/],
      [/iter-002\/evaluation\.json:\d+:\d+: unparsable: iteration 2's evaluation\.json is not valid JSON \(it ends early: cut short\)/],
      [/iter-002\/gate\.json: edited: iteration 2's gate\.json was changed after whetstone wrote it/],
      [new RegExp(`iter-002/results/${results.replace('.', '\\.')}:\\d+:\\d+: truncated: results log .* is cut mid-line`)],
    ];
    const status = await whet(['status'], { cwd: dir });
    expect(status.code).toBe(1);
    expect(status.stdout).not.toContain('no runs yet');
    for (const [re] of named) expect(status.stdout).toMatch(re!);
    // The edited keep is never shown as a decision; the run goes nowhere until repaired.
    expect(status.stdout).toContain('decisions 1:keep 2:? (gate.json damaged)');
    expect(status.stdout).toMatch(/next none until repaired/);

    const show = await whet(['show', runId], { cwd: dir });
    expect(show.code).toBe(1);
    for (const [re] of named) expect(show.stdout).toMatch(re!);
    const iteration2 = show.stdout.slice(show.stdout.indexOf('\niteration 2:'));
    expect(iteration2).toContain('not shown (damaged): evaluation.json, gate.json');
    expect(iteration2).not.toMatch(/gate: KEEP|evaluated cand/);
    const shownGate = await whet(['show', runId, 'gate', '--iteration', '2', '--json'], { cwd: dir });
    expect(shownGate.code).toBe(1);
    expect(shownGate.stdout).toBe('');
    expect(shownGate.stderr).toMatch(named[3]![0]!);

    const report = await whet(['report', runId], { cwd: dir });
    expect(report.code).toBe(1);
    expect(report.stdout).toBe('');
    for (const [re] of named) expect(report.stderr).toMatch(re!);
    expect(report.stderr).toContain('refusing to write evidence from a damaged run');
    const marked = await whet(['report', runId, '--allow-damaged', '--format', 'json'], { cwd: dir });
    expect(marked.code).toBe(1);
    const model = JSON.parse(marked.stdout);
    expect(model.damaged.map((d: { kind: string }) => d.kind).sort()).toEqual(['edited', 'garbage', 'missing', 'truncated', 'unparsable']);
    expect(model.notes[0]).toMatch(/^DAMAGED RUN: 5 file\(s\)/);
    const md = await whet(['report', runId, '--allow-damaged', '--iteration', '2'], { cwd: dir });
    expect(md.stdout).toContain('DAMAGED RUN');
    // Iteration 2's row: neither the cut evaluation nor the edited keep.
    expect(md.stdout).toMatch(/\n\| 2 \| [^\n]* \| — \| — \| — \| max_iterations/);

    // Resume does not go on from an edited decision.
    const refused = await whet(['resume', runId], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/cannot resume run \S+: run \S+ is damaged/);
    expect(refused.stderr).toMatch(named[3]![0]!);

    const verify = await whet(['verify', '--json'], { cwd: dir });
    expect(verify.code).toBe(1);
    const found = JSON.parse(verify.stdout);
    expect(found.runs[0].problems.map((p: { kind: string }) => p.kind).sort()).toEqual(['edited', 'garbage', 'missing', 'truncated', 'unparsable']);

    const repair = await whet(['verify', '--repair'], { cwd: dir });
    expect(repair.code, repair.stdout).toBe(0);
    expect(repair.stdout).toMatch(/run\.json rebuilt from the manifest registered when the run started/);
    expect(repair.stdout).toContain('after repair: clean');
    // Nothing deleted: the damaged files are kept under superseded/.
    expect(readdirSync(join(iter(2), 'superseded')).length).toBeGreaterThan(0);
    const resume = await whet(['resume', runId], { cwd: dir });
    expect(resume.code, resume.stderr).toBe(0);
    expect(outcome(runDir, skill)).toEqual(want);
    expect((await whet(['verify'], { cwd: dir })).code).toBe(0);
    const after = await whet(['status'], { cwd: dir });
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('decisions 1:keep 2:reject');
    expect((await whet(['report', runId], { cwd: dir })).code).toBe(0);
  }, 120_000);

  it('repairing a damaged measurement under a keep undoes the keep first, and resume keeps it again', async () => {
    const { dir, runId, runDir, iter, skill } = await finishedRun();
    const want = outcome(runDir, skill);
    const before = readFileSync(skill, 'utf8');
    cutInHalf(join(iter(1), 'evaluation.json'));
    const repair = await whet(['verify', '--repair', runId], { cwd: dir });
    expect(repair.code, repair.stdout).toBe(0);
    expect(repair.stdout).toMatch(/undid the keep of iteration 1 \(SKILL\.md restored/);
    expect(repair.stdout).toMatch(/moved iteration 2, computed after the damaged evaluate of iteration 1/);
    // The skill is as iteration 1's evaluation saw it: not what the keep left.
    expect(readFileSync(skill, 'utf8')).not.toBe(before);
    expect(readJson(join(runDir, 'run.json')).status).toBe('interrupted');
    const resume = await whet(['resume', runId], { cwd: dir });
    expect(resume.code, resume.stderr).toBe(0);
    expect(outcome(runDir, skill)).toEqual(want);
    expect(readFileSync(skill, 'utf8')).toBe(before);
    expect((await whet(['verify'], { cwd: dir })).code).toBe(0);
  }, 120_000);
});
