// `whet report --format skill-creator`: a skill-creator workspace. benchmark.json and grading.json with
// every field skill-creator's references/schemas.md documents, checked field by field against the examples
// in that document itself (read in place from ../shared/compat), the values a known run must give — and
// skill-creator's own programs, run unchanged with python3, reading it: the viewer finds every run with its
// prompt and answer, the aggregator finds the same runs and the same mean pass rate per configuration.
import { describe, expect, it } from 'vitest';
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLoopProject, findFiles, readJson, repoRoot, sharedDir, tempDir, whet, write } from '../support/cli.js';
import { readBySkillCreator } from '../support/skill-creator.js';

const schemasMd = join(sharedDir, 'compat/anthropic-skills/skill-creator/references/schemas.md');

/** The JSON example under a `## name` heading of schemas.md. */
function documented(name: string): any {
  const md = readFileSync(schemasMd, 'utf8');
  const section = md.split(/^## /m).find((s) => s.startsWith(`${name}\n`));
  const block = /```json\n([\s\S]*?)```/.exec(section ?? '');
  if (!block) throw new Error(`schemas.md has no ${name} example`);
  return JSON.parse(block[1]!);
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Every key path of `doc` exists in `ours` with the same JSON type (arrays: their first element). */
function sameFields(doc: any, ours: any, path: string, nullable: Set<string>, skip: Set<string>): string[] {
  if (skip.has(path)) return [];
  if (kind(ours) !== kind(doc) && !(ours === null && nullable.has(path))) return [`${path}: ${kind(doc)} documented, ${kind(ours)} written`];
  if (kind(doc) === 'array') return doc.length && ours.length ? sameFields(doc[0], ours[0], `${path}[]`, nullable, skip) : [];
  if (kind(doc) !== 'object') return [];
  // tool_calls maps tool names to counts: its keys are data, not fields.
  if (path.endsWith('execution_metrics.tool_calls')) return [];
  return Object.keys(doc).flatMap((k) => (k in ours ? sameFields(doc[k], ours[k], `${path}.${k}`, nullable, skip) : skip.has(`${path}.${k}`) ? [] : [`${path}.${k}: missing`]));
}

function project(): string {
  const dir = tempDir();
  cpSync(join(repoRoot, 'test/fixtures/evals-json/canonical'), join(dir, 'skill'), { recursive: true });
  // The candidate adds what eval 2's second expectation asks for.
  write(join(dir, 'variants/cand-01/SKILL.md'), `${readFileSync(join(dir, 'skill/SKILL.md'), 'utf8')}Draw a histogram of the monthly revenue trend beside the missing values.\n`);
  write(join(dir, 'ranking.json'), JSON.stringify({ run_id: 'run-1', iteration: 1, target: { path: join(dir, 'skill') }, scored_candidates: [{ id: 'cand-01', score: 7 }] }));
  return dir;
}

describe('whet report --format skill-creator', () => {
  it('writes benchmark.json and a grading.json per run with every documented field, and the right numbers', async () => {
    const dir = project();
    const ev = await whet(['evaluate', '--input', 'ranking.json', '--candidate-id', 'cand-01', '--task-suite', 'skill/evals/evals.json', '--state-root', 'state', '--mock', '--pass-k', '2', '--json'], { cwd: dir });
    expect(ev.code, ev.stderr).toBe(0);
    const r = await whet(['report', '--format', 'skill-creator', '-o', 'viewer', '--state-root', 'state'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/2 eval\(s\), 8 run\(s\) with outputs\/ \(8 graded/);
    const bench = readJson(join(dir, 'viewer/benchmark.json'));

    // The configurations are data (skill-creator's names for an edit against the skill it improves): held to the documented ones' fields.
    const doc = documented('benchmark.json');
    const { with_skill, without_skill, ...rest } = doc.run_summary;
    expect(sameFields({ ...doc, run_summary: { ...rest, new_skill: with_skill, old_skill: without_skill } }, bench, 'benchmark', new Set(), new Set())).toEqual([]);
    expect(bench.runs).toHaveLength(8);
    for (const run of bench.runs) {
      expect(['new_skill', 'old_skill']).toContain(run.configuration);
      expect(Number.isInteger(run.eval_id) && Number.isInteger(run.run_number)).toBe(true);
      expect(Object.keys(run.result).sort()).toEqual(['errors', 'failed', 'pass_rate', 'passed', 'time_seconds', 'tokens', 'tool_calls', 'total']);
      for (const e of run.expectations) expect(Object.keys(e).sort()).toEqual(['evidence', 'passed', 'text']);
    }
    expect(bench.metadata).toMatchObject({ skill_name: 'csv-summary', executor_model: 'mock', analyzer_model: 'mock', evals_run: [1, 2], runs_per_configuration: 2 });
    const of = (c: string, id: number) => bench.runs.filter((x: any) => x.configuration === c && x.eval_id === id);
    expect(of('old_skill', 2).map((x: any) => x.result)).toEqual([expect.objectContaining({ pass_rate: 0.5, passed: 1, failed: 1, total: 2, errors: 0 }), expect.objectContaining({ pass_rate: 0.5 })]);
    expect(of('new_skill', 2)[0].expectations.map((e: any) => [e.text, e.passed])).toEqual([
      ['Flag missing values with the column name and the row number', true],
      ['Draw a histogram of the monthly revenue trend', true],
    ]);
    expect(bench.run_summary.new_skill.pass_rate).toEqual({ mean: 1, stddev: 0, min: 1, max: 1 });
    expect(bench.run_summary.old_skill.pass_rate).toMatchObject({ mean: 0.75, min: 0.5, max: 1 });
    expect(bench.run_summary.old_skill.pass_rate.stddev).toBeCloseTo(0.2887, 4);
    expect(bench.run_summary.delta.pass_rate).toBe('+0.25');
    expect(bench.run_summary.delta.time_seconds).toMatch(/^[+-]\d+\.\d$/);
    expect(bench.run_summary.delta.tokens).toMatch(/^[+-]\d+$/);
    // whetstone's own additions, where the viewer does not look.
    expect(bench.run_summary.new_skill.whetstone).toMatchObject({ tasks_passed: 2, tasks_judged: 2, task_pass_rate: 1 });
    expect(bench.run_summary.new_skill.whetstone.task_pass_rate_ci95.low).toBeCloseTo(0.3424, 3);
    expect(bench.whetstone.paired).toMatchObject({ tasks_compared: 2, fixed: 1, method: expect.stringMatching(/McNemar/) });
    expect(bench.notes).toContain('whetstone: old_skill fails "Draw a histogram of the monthly revenue trend" in 2/2 runs');

    const gradings = findFiles(join(dir, 'viewer'), 'grading.json');
    expect(gradings.map((f) => f.slice(join(dir, 'viewer').length + 1))).toContain(join('eval-2', 'old_skill', 'run-2', 'grading.json'));
    const g = readJson(join(dir, 'viewer/eval-2/old_skill/run-1/grading.json'));
    const unmeasured = new Set(['grading.execution_metrics.total_steps', 'grading.execution_metrics.transcript_chars', 'grading.timing.grader_duration_seconds']);
    // eval_feedback is documented as optional, "only present when the grader identifies issues".
    expect(sameFields(documented('grading.json'), g, 'grading', unmeasured, new Set(['grading.eval_feedback']))).toEqual([]);
    expect(g.summary).toEqual({ passed: 1, failed: 1, total: 2, pass_rate: 0.5 });
    expect(g.expectations[1]).toMatchObject({ text: 'Draw a histogram of the monthly revenue trend', passed: false, evidence: expect.stringMatching(/rubric terms present/) });
    expect(g.whetstone.not_measured).toEqual(expect.arrayContaining(['total_steps', 'transcript_chars', 'grader_duration_seconds']));
    const t = readJson(join(dir, 'viewer/eval-2/old_skill/run-1/timing.json'));
    expect(Object.keys(documented('timing.json')).filter((k) => !k.startsWith('grader_') && !(k in t))).toEqual([]);
    expect(t.total_duration_seconds).toBe(g.timing.total_duration_seconds);
    expect(readJson(join(dir, 'viewer/eval-2/eval_metadata.json'))).toMatchObject({ eval_id: 2, prompt: 'Which values are missing in evals/files/sales.csv?', assertions: ['Flag missing values with the column name and the row number', 'Draw a histogram of the monthly revenue trend'] });

    // skill-creator's own programs read it as a workspace of theirs.
    const seen = readBySkillCreator(join(dir, 'viewer'));
    expect(seen.viewer).toHaveLength(8);
    expect(seen.viewer.find((v) => v.id === 'eval-1-new_skill-run-1')?.prompt).toBe('Count the rows of evals/files/sales.csv and name every column.');
  }, 120_000);

  it('reports a standalone run as with_skill only, unjudged evals noted and out of the summary', async () => {
    const dir = tempDir();
    cpSync(join(repoRoot, 'test/fixtures/evals-json/expected-only'), join(dir, 'skill'), { recursive: true });
    const ev = await whet(['evaluate', '--standalone', '--task-suite', 'skill/evals/evals.json', '--skill-path', 'skill', '--state-root', 'state', '--mock'], { cwd: dir });
    expect(ev.code, ev.stderr).toBe(0);
    expect((await whet(['report', '--format', 'skill-creator', '-o', 'out', '--state-root', 'state'], { cwd: dir })).code).toBe(0);
    const bench = readJson(join(dir, 'out/benchmark.json'));
    expect(Object.keys(bench.run_summary).sort()).toEqual(['delta', 'with_skill']);
    expect(bench.run_summary.delta).toEqual({});
    expect(bench.runs.map((x: any) => [x.eval_id, x.whetstone.status])).toEqual([
      [1, 'pass'],
      [2, 'pass'],
      [3, 'unjudged'],
      [4, 'unjudged'],
    ]);
    expect(bench.run_summary.with_skill.whetstone.runs).toBe(2);
    expect(bench.notes.join('\n')).toMatch(/2 eval\(s\) unjudged .*eval-3, eval-4/);
    // The unjudged evals are runs the viewer shows (their answers), with no grading the aggregator would count as 0.
    const seen = readBySkillCreator(join(dir, 'out'));
    expect(seen.viewer.map((v) => v.id)).toEqual(['eval-1-with_skill-run-1', 'eval-2-with_skill-run-1', 'eval-3-with_skill-run-1', 'eval-4-with_skill-run-1']);
  }, 120_000);

  it('exports an iteration of a loop run as new_skill against old_skill, read alike by skill-creator', async () => {
    const dir = exampleLoopProject({ prefix: 'whet-sc-loop-', loop: '{max_iterations: 2, plateau_window: 2, proposers: [feedback, structural]}', thresholds: '{min_delta: 0, max_new_failures: 0, significance: 0.05}' });
    const run = await whet(['run'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const r = await whet(['report', '--format', 'skill-creator', '-o', 'ws', '--iteration', '1'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const { bench } = readBySkillCreator(join(dir, 'ws'));
    expect(Object.keys(bench.run_summary).sort()).toEqual(['delta', 'new_skill', 'old_skill']);
    expect(bench.whetstone.configurations.new_skill).toMatch(/^candidate /);
    expect(readdirSync(join(dir, 'ws')).filter((f) => f.startsWith('eval-')).length).toBeGreaterThan(3);
  }, 120_000);

  it('refuses without -o, and refuses to write into a folder that holds other files', async () => {
    const dir = tempDir();
    cpSync(join(repoRoot, 'test/fixtures/evals-json/canonical'), join(dir, 'skill'), { recursive: true });
    await whet(['evaluate', '--standalone', '--task-suite', 'skill/evals/evals.json', '--skill-path', 'skill', '--state-root', 'state', '--mock'], { cwd: dir });
    const none = await whet(['report', '--format', 'skill-creator', '--state-root', 'state'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/name it with -o DIR/);
    write(join(dir, 'busy/notes.txt'), 'mine');
    const busy = await whet(['report', '--format', 'skill-creator', '-o', 'busy', '--state-root', 'state'], { cwd: dir });
    expect(busy.code).toBe(2);
    expect(readFileSync(join(dir, 'busy/notes.txt'), 'utf8')).toBe('mine');
    // Writing the same report again into its own folder is allowed.
    expect((await whet(['report', '--format', 'skill-creator', '-o', 'again', '--state-root', 'state'], { cwd: dir })).code).toBe(0);
    expect((await whet(['report', '--format', 'skill-creator', '-o', 'again', '--state-root', 'state'], { cwd: dir })).code).toBe(0);
  });
});
