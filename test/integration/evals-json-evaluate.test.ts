// skill-creator evals.json files evaluated end to end: each fixture (test/fixtures/evals-json, one per
// variant the format has in the wild) on the mock engine, per-expectation verdicts in the results log,
// unjudged evals apart from the rates, files copied into the agent's workspace, and the suite found for a
// pipeline target that names only the skill.
import { describe, expect, it } from 'vitest';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findFiles, fixturesBin, repoRoot, snapshotTree, tempDir, whet, write } from '../support/cli.js';

const fixtures = join(repoRoot, 'test/fixtures/evals-json');

function project(): string {
  const dir = tempDir();
  cpSync(fixtures, dir, { recursive: true });
  return dir;
}

async function evaluate(dir: string, suite: string, skill: string) {
  const r = await whet(['evaluate', '--standalone', '--task-suite', suite, '--skill-path', skill, '--state-root', 'state', '--mock', '--json', '--force'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const lines = readFileSync(findFiles(join(dir, 'state/runs'), 'baseline.jsonl').at(-1)!, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return { artifact: JSON.parse(r.stdout), lines, stderr: r.stderr };
}

const verdicts = (line: any) => line.judges.map((j: any) => [j.expectation, j.passed]);

describe('evaluate on skill-creator evals.json (mock engine)', () => {
  it('grades each expectation as its own judgement; the eval passes only when all pass', async () => {
    const dir = project();
    const { artifact, lines, stderr } = await evaluate(dir, 'canonical/evals/evals.json', 'canonical');
    expect(artifact.skill_id).toBe('csv-summary');
    // The mock has no workspace: that the eval files are not placed is said, not skipped silently.
    expect(stderr).toMatch(/warning: 2 task\(s\) name files for the agent's workspace, but the mock engine has no temporary workspace: the files are not copied/);
    expect(artifact.evaluation).toMatchObject({ total_tasks: 2, passed: 1, failed: 1, errors: 0 });
    const byId = Object.fromEntries(lines.map((l) => [l.task_id, l]));
    expect(verdicts(byId['eval-1'])).toEqual([
      ['Count the rows of the CSV file', true],
      ['Name every column of the file', true],
    ]);
    // The mock answers by quoting the skill, which says nothing of histograms: that expectation alone fails the eval.
    expect(verdicts(byId['eval-2'])).toEqual([
      ['Flag missing values with the column name and the row number', true],
      ['Draw a histogram of the monthly revenue trend', false],
    ]);
    expect(byId['eval-2'].status).toBe('fail');
    expect(byId['eval-2'].judges[1].reason).toMatch(/rubric terms present/);
    expect(artifact.evaluation.judge_calls).toBe(4);
    // One count of calls (issue 28 §4): the summary names both kinds and their sum, and status says that sum.
    const text = await whet(['evaluate', '--standalone', '--task-suite', 'canonical/evals/evals.json', '--skill-path', 'canonical', '--state-root', 'state', '--mock', '--force'], { cwd: dir });
    expect(text.stdout + text.stderr).toMatch(/6 call\(s\): engine 2 · judge 4 · generator 0/);
    expect((await whet(['status', '--state-root', 'state'], { cwd: dir })).stdout).toMatch(/verdict pass; 6 call\(s\): engine 2 · judge 4 · generator 0/);
    // show and every report format say the same count.
    expect((await whet(['show', artifact.run_id, '--state-root', 'state'], { cwd: dir })).stdout).toContain('spent: 6 call(s): engine 2 · judge 4 · generator 0');

    // The reports name each expectation on its own line with its verdict and evidence, not one run-on reason.
    const md = (await whet(['report', artifact.run_id, '--state-root', 'state'], { cwd: dir })).stdout;
    expect(md).toContain('spent 6 call(s): engine 2 · judge 4 · generator 0');
    const junit = (await whet(['report', artifact.run_id, '--state-root', 'state', '--format', 'junit'], { cwd: dir })).stdout;
    expect(junit).toContain('<property name="whetstone.calls.judge" value="4"/>');
    expect(md).toMatch(/^- `eval-2` \[[^\]]+\]: 1 of 2 expectation\(s\) failed\n {2}- passed: Flag missing values with the column name and the row number — .+\n {2}- \*\*failed\*\*: Draw a histogram of the monthly revenue trend — .*rubric terms present/m);
    const html = (await whet(['report', artifact.run_id, '--state-root', 'state', '--format', 'html'], { cwd: dir })).stdout;
    expect(html).toMatch(/<li data-testid="expectation" data-passed="false"><b class="bad">FAIL<\/b> Draw a histogram of the monthly revenue trend — <small>[^<]*rubric terms present/);
    // The decision comes first: the verdict section precedes every section of evidence.
    expect(html.indexOf('data-testid="decision-verdict"')).toBeGreaterThan(0);
    expect(html.indexOf('data-testid="decision-verdict"')).toBeLessThan(html.indexOf('data-testid="system"'));
    expect(html.indexOf('data-testid="decision-verdict"')).toBeLessThan(html.indexOf('data-testid="trend"'));
    expect(html).toMatch(/pre\.diff\{[^}]*white-space:pre-wrap/);
  });

  it('evaluates the variants: assertion objects, ids from 0 with gaps and text, extra keys', async () => {
    const dir = project();
    const { artifact, lines } = await evaluate(dir, 'variants/evals/evals.json', 'variants');
    expect(artifact.task_results.map((t: any) => t.task_id).sort()).toEqual(['eval-0', 'eval-7', 'eval-footer-refs']);
    expect(artifact.evaluation).toMatchObject({ total_tasks: 3, passed: 2, failed: 1 });
    const first = lines.find((l) => l.task_id === 'eval-0');
    expect(verdicts(first)).toEqual([
      ['Write the subject line in the imperative mood', true],
      ['The subject is at most 50 characters', true],
      ['Reference the issue number in the footer', false],
    ]);
    expect(artifact.evaluation.per_category).toHaveProperty('subject-line');
  });

  it('grades against expected_output when nothing else is given, and reports evals with neither as unjudged, not failed', async () => {
    const dir = project();
    const { artifact, lines } = await evaluate(dir, 'expected-only/evals/evals.json', 'expected-only');
    expect(artifact.evaluation).toMatchObject({ total_tasks: 2, passed: 2, failed: 0, errors: 0, unjudged: { tasks: 2, attempts: 2, task_ids: ['eval-3', 'eval-4'] } });
    expect(artifact.task_results.map((t: any) => t.task_id)).toEqual(['eval-1', 'eval-2']);
    expect(artifact.reason).toMatch(/2 eval\(s\) unjudged and not counted/);
    const unjudged = lines.filter((l) => l.status === 'unjudged').map((l) => l.task_id);
    expect(unjudged.sort()).toEqual(['eval-3', 'eval-4']);
    // Their answers are still recorded, for a reader to judge.
    expect(lines.find((l) => l.task_id === 'eval-3').output).toMatch(/你好/);
    // A second run resumes nothing and re-runs nothing: unjudged attempts are done, not errors.
    const again = await whet(['evaluate', '--standalone', '--task-suite', 'expected-only/evals/evals.json', '--skill-path', 'expected-only', '--state-root', 'state', '--mock', '--json'], { cwd: dir });
    const cached = JSON.parse(again.stdout);
    expect(cached.evaluation.engine_calls).toBe(0);
    expect(cached.evaluation.unjudged).toMatchObject({ tasks: 2 });
  });

  it('copies an eval\'s files into the agent\'s workspace at their skill-relative paths', async () => {
    const dir = project();
    // An agent that answers with what it finds in its working directory.
    const agent = write(join(dir, 'ls-agent.mjs'), "import fs from 'node:fs';\nprocess.stdin.resume();\nprocess.stdin.on('end', () => { const f = 'evals/files/sales.csv'; process.stdout.write(fs.existsSync(f) ? 'found ' + f + '\\n' + fs.readFileSync(f, 'utf8') : 'no file'); });\n");
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${process.execPath}", "${agent}"]}\njudge_engine: {type: mock}\n`);
    const r = await whet(['evaluate', '--standalone', '--task-suite', 'canonical/evals/evals.json', '--skill-path', 'canonical', '--state-root', 'state', '--json'], { cwd: dir });
    // The verdict may be a fail (this agent does not do the task); the run itself must have worked.
    expect(JSON.parse(r.stdout).evaluation.errors, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/not copied/);
    const lines = readFileSync(findFiles(join(dir, 'state/runs'), 'baseline.jsonl')[0]!, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    for (const l of lines) expect(l.output).toBe('found evals/files/sales.csv\nregion,month,revenue\nnorth,jan,120\nsouth,jan,');
  });

  it('places the files in claude\'s workspace too, beside the installed skill', async () => {
    const dir = project();
    const log = join(dir, 'claude.log');
    write(join(dir, 'pipeline.yaml'), 'engine: {type: claude, mode: installed}\njudge_engine: {type: mock}\n');
    const env = { ...process.env, PATH: `${fixturesBin}:${process.env.PATH}`, FAKE_CLAUDE_MODE: 'stream', FAKE_CLAUDE_LOG: log };
    const r = await whet(['evaluate', '--standalone', '--task-suite', 'variants/evals/evals.json', '--skill-path', 'variants', '--state-root', 'state', '--json'], { cwd: dir, env });
    expect(JSON.parse(r.stdout).evaluation.errors, r.stderr).toBe(0);
    const calls = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((c) => c.env.WHET_REQUEST_KIND !== 'judge');
    const byTask = Object.fromEntries(calls.map((c) => [c.env.WHET_TASK_ID, c.cwd_entries.sort()]));
    expect(byTask['eval-0']).toEqual(['.claude', 'SKILL.md', 'evals']);
    expect(byTask['eval-7']).toEqual(['.claude', 'examples', 'references']);
    expect(byTask['eval-footer-refs']).toEqual(['.claude']);
  });

  it('finds evals/evals.json for a target that names only the skill, also at the repository root above SKILL.md', async () => {
    const dir = project();
    write(join(dir, 'pipeline.yaml'), 'engine: {type: mock}\ntargets: [{skill: repo-root/skills/haiku}, {skill: canonical}]\n');
    const r = await whet(['nightly', '--json'], { cwd: dir, now: () => new Date(2026, 10, 1, 3) });
    expect(r.code, r.stderr).toBe(0);
    const targets = JSON.parse(r.stdout).targets;
    expect(targets.map((t: any) => t.label)).toEqual([expect.stringMatching(/haiku/), expect.stringMatching(/csv-summary|canonical/)]);
    expect(targets.map((t: any) => t.pass_rate)).toEqual([1, 0.5]);
  });

  it('refuses a bad evals.json with file:line:col, exit 2, and the state directory untouched', async () => {
    const dir = project();
    write(join(dir, 'bad/SKILL.md'), '# Bad\n');
    write(join(dir, 'bad/evals/evals.json'), '{\n  "evals": [\n    {"id": 1, "prompt": "p", "files": ["evals/files/missing.pdf"]}\n  ]\n}\n');
    write(join(dir, 'state/keep.txt'), 'x');
    const before = snapshotTree(join(dir, 'state'));
    const r = await whet(['evaluate', '--standalone', '--task-suite', 'bad/evals/evals.json', '--skill-path', 'bad', '--state-root', 'state', '--mock'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\/evals\/evals\.json:3:40 evals\[0\]\.files\[0\]: eval 1: file not found: evals\/files\/missing\.pdf/);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  });
});
