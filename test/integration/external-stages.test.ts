// pipeline.yaml `stages.generate.command`: a whole loop driven by the Python example generator, and
// programs that break the contract refused with the program, the file and the field (exit 2), the
// state directory byte-identical to what it was before the call.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, waitAllDead } from '../support/process.js';
import { copyExample, findFiles, readJson, repoRoot, snapshotTree, tempDir, whet, write } from '../support/cli.js';

const pyGenerator = join(repoRoot, 'examples/external-generator/generate.py');
const badGenerator = join(repoRoot, 'test/fixtures/stages/bad-generator.mjs');
const sha = (s: string | Buffer) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

function project(command: string[], loop = 'max_iterations: 3'): string {
  const dir = tempDir('whet-external-');
  copyExample('release-notes', join(dir, 'release-notes'));
  write(
    join(dir, 'pipeline.yaml'),
    `state_dir: state
engine: {type: mock}
targets: [{skill: release-notes, suite: release-notes/tasks.yaml}]
loop: {${loop}, plateau_window: 2, candidates_per_iteration: 3, mock_keeps: apply}
thresholds: {min_delta: 0, max_new_failures: 0}
evaluate: {concurrency: 2}
stages:
  generate:
    command: ${JSON.stringify(command)}
    timeout: 60s
`,
  );
  return dir;
}

const runDirOf = (dir: string) => join(dir, 'state/runs', readdirSync(join(dir, 'state/runs')).sort().pop()!);
/** The state directory's files and bytes, the lock left out (it is the call's, not the run's). */
const stateSnapshot = (dir: string) => Object.fromEntries(Object.entries(snapshotTree(join(dir, 'state'))).filter(([p]) => p !== 'lock'));

// Whole loops on the mock engine: seconds alone, far more on a loaded CI machine, hence 120 s per test.
describe('an external generate stage (stages.generate.command)', () => {
  it('runs a whole loop with the Python example: its candidates are discriminated, evaluated and gated', async () => {
    const dir = project(['python3', pyGenerator]);
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/generate \(external: python3 .*generate\.py\): proposed; 2 candidate\(s\)/);
    const runDir = runDirOf(dir);
    const gates = findFiles(runDir, 'gate.json').filter((f) => !f.includes('superseded')).map((f) => readJson(f));
    expect(gates.length).toBeGreaterThanOrEqual(2);
    // Every gated candidate is one the Python program proposed.
    for (const g of gates) expect(g.candidate_id).toMatch(/^py-/);
    expect(gates.some((g) => g.decision === 'keep')).toBe(true);
    expect(readFileSync(join(dir, 'release-notes/SKILL.md'), 'utf8')).toMatch(/^## Breaking changes$/m);
    // The runner materialised each variant from the program's actions, and it is what the artifact claims.
    const cands = readJson(join(runDir, 'iter-001/candidates.json'));
    expect(cands.candidates.map((c: { id: string }) => c.id)).toEqual(['py-breaking-changes', 'py-security']);
    for (const c of cands.candidates) expect(sha(readFileSync(join(runDir, 'iter-001', c.variant_path, 'SKILL.md')))).toBe(c.content_sha256);
    // No judge string is written into the skill: the guidance names the topic, not the test.
    const written = cands.candidates.flatMap((c: { actions: { heading: string; body: string }[] }) => c.actions.map((a) => `${a.heading}\n${a.body}`)).join('\n');
    expect(written).toMatch(/titled Breaking changes/);
    expect(written).not.toMatch(/["'`\u201c]Breaking changes|migration|rn-breaking|rn-security/i);
    const events = readFileSync(join(runDir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const ext = events.filter((e) => e.event === 'external_stage');
    expect(ext.length).toBe(3);
    expect(ext[0]).toMatchObject({ stage: 'generate', iteration: 1, program: ['python3', pyGenerator], artifact: 'candidates.json' });
    expect(ext[0].sha256).toBe(sha(readFileSync(join(runDir, 'iter-001/candidates.json'))));
    expect(ext[0]).toMatchObject({ script: pyGenerator, script_sha256: sha(readFileSync(pyGenerator)) });
    // The rejected content is never proposed again: the last iteration's generator skips it by its lesson.
    const last = readJson(join(runDir, 'iter-003/candidates.json'));
    expect(last.candidates).toEqual([]);
    expect(existsSync(join(runDir, 'iter-003/variants'))).toBe(false);
    expect(last.skipped.map((s: { why: string }) => s.why).join(' ')).toMatch(/rejected before/);
    // An external stage's artifacts are recorded like the built-in ones: the state verifies clean (issue 31).
    const verified = await whet(['verify'], { cwd: dir });
    expect(verified.code, verified.stdout).toBe(0);
    // The program is registered with the run: another one in its place later is refused, nothing moved.
    expect(readJson(join(runDir, 'run.json')).settings.stage_programs).toEqual({ generate: ['python3', pyGenerator] });
    write(join(dir, 'pipeline.yaml'), readFileSync(join(dir, 'pipeline.yaml'), 'utf8').replace(JSON.stringify(['python3', pyGenerator]), JSON.stringify(['node', badGenerator, 'valid'])));
    const before = stateSnapshot(dir);
    const swapped = await whet(['generate'], { cwd: dir });
    expect(swapped.code, swapped.stderr).toBe(2);
    expect(swapped.stderr).toMatch(/decision settings changed since it started \(stages\.<name>\.command: \{"generate":\["python3",.*\]\} \(set before results\) → \{"generate":\["node",/);
    expect(stateSnapshot(dir)).toEqual(before);
  }, 120_000);

  it('refuses an artifact that breaks the schema, naming program, file and field; a resume leaves the state byte-identical', async () => {
    const dir = project(['node', badGenerator, 'risk']);
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/candidates\.json:\d+:\d+ candidates\[0\]\.risk: stage program node .*bad-generator\.mjs \(stages\.generate\.command\) wrote an invalid candidates\.json/);
    const runDir = runDirOf(dir);
    expect(readJson(join(runDir, 'run.json')).status).toBe('incomplete');
    expect(readdirSync(join(runDir, 'iter-001'))).not.toContain('candidates.json');
    expect(existsSync(join(runDir, 'iter-001/variants'))).toBe(false);
    const before = stateSnapshot(dir);
    const again = await whet(['resume'], { cwd: dir });
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toMatch(/candidates\[0\]\.risk/);
    expect(stateSnapshot(dir)).toEqual(before);
  }, 120_000);

  it('refuses a wrong envelope and content that its actions do not give, each by its field', async () => {
    const wrongIteration = project(['node', badGenerator, 'iteration']);
    const a = await whet(['run'], { cwd: wrongIteration });
    expect(a.code, a.stderr).toBe(2);
    expect(a.stderr).toMatch(/ iteration: stage program .* is 8, this iteration is 1/);
    const wrongContent = project(['node', badGenerator, 'content']);
    const b = await whet(['run'], { cwd: wrongContent });
    expect(b.code, b.stderr).toBe(2);
    expect(b.stderr).toMatch(/candidates\[0\]\.content_sha256: .*its actions applied to the target give sha256:/);
    const leak = project(['node', badGenerator, 'leak']);
    const l = await whet(['run'], { cwd: leak });
    expect(l.code, l.stderr).toBe(2);
    expect(l.stderr).toMatch(/candidates\[0\]\.actions: .*copy the judges' mechanics into the skill \(the expected string "Breaking changes" in quotes/);
    // A program can read the suite, so its candidates answer to the held-out judges too.
    const heldOut = project(['node', badGenerator, 'holdout-leak']);
    const h = await whet(['run'], { cwd: heldOut });
    expect(h.code, h.stderr).toBe(2);
    expect(h.stderr).toMatch(/candidates\[0\]\.actions: .*copy the judges' mechanics into the skill \(the expected string "exporter module" in quotes/);
    const silent = project(['node', badGenerator, 'nothing']);
    const c = await whet(['run'], { cwd: silent });
    expect(c.code, c.stderr).toBe(2);
    expect(c.stderr).toMatch(/exited 0 without writing candidates\.json/);
  }, 120_000);

  it('a program that fails is an infrastructure error (exit 3) with its stderr, and nothing is placed', async () => {
    const dir = project(['node', badGenerator, 'crash']);
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/stage program node .*bad-generator\.mjs \(stages\.generate\.command\) failed: exit code 1: bad-generator: something went wrong/);
    const runDir = runDirOf(dir);
    expect(readdirSync(join(runDir, 'iter-001'))).not.toContain('candidates.json');
    expect(readJson(join(runDir, 'run.json')).status).toBe('incomplete');
  }, 120_000);

  it('a program past its timeout loses its process tree: exit 3, nothing placed', async () => {
    const dir = project(['node', '-e', 'setTimeout(() => undefined, 120000)']);
    write(join(dir, 'pipeline.yaml'), readFileSync(join(dir, 'pipeline.yaml'), 'utf8').replace('timeout: 60s', 'timeout: 1s'));
    const started = Date.now();
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/\(stages\.generate\.command\) failed: timed out after 1000 ms \(process tree killed\)/);
    // Far below the program's own 120 s: the timeout, not the program, ended it.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(readdirSync(join(runDirOf(dir), 'iter-001'))).not.toContain('candidates.json');
  }, 120_000);

  it('Ctrl-C while the program runs stops its process tree: the run is interrupted, nothing placed, resumable', async () => {
    const marker = join(tempDir(), 'started');
    const script = "require('fs').writeFileSync(process.argv[1], String(process.pid)); setTimeout(() => undefined, 120000)";
    const dir = project(['node', '-e', script, marker]);
    const ac = new AbortController();
    const running = whet(['run'], { cwd: dir, signal: ac.signal });
    // The program creates the file and then writes its pid: until the pid is there, a read gives '' — and
    // Number('') is 0, for which signal 0 reaches this process's own group and the program never looked gone
    // (CI, a loaded machine, caught it between the two).
    const pidIn = (): number => (existsSync(marker) ? Number(readFileSync(marker, 'utf8')) : 0);
    for (let i = 0; i < 600 && !(pidIn() > 0); i++) await new Promise((res) => setTimeout(res, 100));
    const pid = pidIn();
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(true);
    ac.abort();
    const r = await running;
    expect(r.code, r.stderr).toBe(130);
    const runDir = runDirOf(dir);
    expect(readJson(join(runDir, 'run.json')).status).toBe('interrupted');
    expect(readdirSync(join(runDir, 'iter-001'))).not.toContain('candidates.json');
    // Gone, or a zombie no longer running anything (support/process.ts).
    expect(await waitAllDead([pid], 10_000)).toEqual([]);
  }, 120_000);

  it('a valid program with a contract-honouring artifact continues the loop from its next_step', async () => {
    const dir = project(['node', badGenerator, 'valid'], 'max_iterations: 1');
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const runDir = runDirOf(dir);
    expect(readJson(join(runDir, 'iter-001/ranking.json')).scored_candidates[0].id).toBe('version-first');
    expect(existsSync(join(runDir, 'iter-001/learning.json'))).toBe(true);
  }, 120_000);

  it('an external learn stage ends the run on its own handoff (next_step done), after the built-in gate', async () => {
    const dir = project(['node', badGenerator, 'valid']);
    const learner = join(repoRoot, 'test/fixtures/stages/stop-learner.mjs');
    write(join(dir, 'pipeline.yaml'), readFileSync(join(dir, 'pipeline.yaml'), 'utf8').replace(/stages:[\s\S]*/, `stages:\n  learn: {command: [node, ${JSON.stringify(learner)}]}\n`));
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/run done: stop-learner\.mjs stops after one iteration/);
    const runDir = runDirOf(dir);
    expect(existsSync(join(runDir, 'iter-001/gate.json'))).toBe(true);
    expect(existsSync(join(runDir, 'iter-002'))).toBe(false);
    expect(readJson(join(runDir, 'iter-001/learning.json')).lesson.decision).toBe(readJson(join(runDir, 'iter-001/gate.json')).decision);
  }, 120_000);

  it('refuses a bad stages: entry at load, located in pipeline.yaml, before any state exists', async () => {
    const dir = project(['node', badGenerator]);
    write(join(dir, 'pipeline.yaml'), readFileSync(join(dir, 'pipeline.yaml'), 'utf8').replace(/command: .*/, 'command: []'));
    const r = await whet(['run'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pipeline\.yaml:\d+:\d+ stages\.generate\.command: .*at least the program/);
    const other = project(['node', badGenerator]);
    write(join(other, 'pipeline.yaml'), readFileSync(join(other, 'pipeline.yaml'), 'utf8').replace('  generate:', '  baseline:'));
    const o = await whet(['run'], { cwd: other });
    expect(o.code).toBe(2);
    expect(o.stderr).toMatch(/pipeline\.yaml:\d+:\d+ stages.*baseline/);
    expect(existsSync(join(dir, 'state'))).toBe(false);
    expect(existsSync(join(other, 'state'))).toBe(false);
  }, 120_000);
});
