// Lint rules other than leakage: grid coverage, negative controls, impossible or vacuous expectations,
// positional ids, judge configuration — each with its file:line, severity and exit code.
import { describe, expect, it } from 'vitest';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { lintSuite, looksPositional, matchesEverything, type Finding } from '../../src/lint/index.js';
import { repoRoot, tempDir, write } from '../support/cli.js';
import { runWhet } from '../fixtures/calibrate/harness.js';

function lint(yaml: string, opts: { allowNoNegatives?: boolean } = {}) {
  const dir = tempDir();
  write(join(dir, 'tasks.yaml'), yaml);
  return { dir, result: lintSuite({ suite: 'tasks.yaml', ...opts }, dir) };
}
const brief = (fs: Finding[], rule: string) => fs.filter((f) => f.rule === rule).map((f) => `${f.line} ${f.severity} ${f.message}`);

const GRID_SUITE = `skill_id: s
version: "1.0"
grid:
  intent: [refund, exchange]
  persona: [new, returning]
tasks:
  - id: refund-new
    cell: {intent: refund, persona: new}
    prompt: I want my money back for the lamp.
    judge: {type: contains, expected: [refund]}
  - id: refund-typo
    cell: {intent: refnud, persona: returning}
    prompt: Can you refund the mug I bought last month?
    judge: {type: contains, expected: [refund]}
  - id: exchange-partial
    cell: {intent: exchange}
    prompt: Swap my shoes for a bigger size please.
    judge: {type: contains, expected: [size]}
  - id: persona-wrong
    cell: {intent: exchange, mood: angry}
    prompt: This jacket is the wrong colour and I am furious.
    judge: {type: contains, expected: [colour]}
  - id: weather
    negative: true
    prompt: Will it rain in Porto tomorrow?
    judge: {type: not_contains, expected: [refund]}
`;

describe('grid coverage', () => {
  const { result } = lint(GRID_SUITE);
  const fs = result.findings;

  it('errors on a cell value or dimension the grid does not declare, at the cell line', () => {
    expect(brief(fs, 'grid-unknown-value')).toEqual(['12 error "refnud" is not a value of grid dimension "intent" (refund, exchange)']);
    expect(brief(fs, 'grid-unknown-dimension')).toEqual(['20 error cell dimension "mood" is not in the grid (intent, persona)']);
  });

  it('warns on partial cells and lists every empty cell at the grid line', () => {
    expect(brief(fs, 'grid-partial-cell')).toEqual(['15 warning task "exchange-partial" has no value for grid dimension persona', '19 warning task "persona-wrong" has no value for grid dimension persona']);
    // Only refund × new is validly covered; the typo and the partial cells do not count.
    expect(brief(fs, 'grid-empty-cell')).toEqual([
      '4 warning no task in cell intent=refund × persona=returning',
      '4 warning no task in cell intent=exchange × persona=new',
      '4 warning no task in cell intent=exchange × persona=returning',
    ]);
    expect(result.grid).toEqual({ dimensions: { intent: 2, persona: 2 }, cells: 4, covered: 1 });
  });

  it('warns when no grid is declared, and on tasks without a cell (negative controls exempt)', () => {
    const none = lint(GRID_SUITE.replace(/grid:\n.*\n.*\n/, '')).result.findings;
    expect(brief(none, 'grid-none')).toEqual(['1 warning the suite declares no grid, so its coverage cannot be checked']);
    const noCell = lint(GRID_SUITE.replace('    cell: {intent: refund, persona: new}\n', '')).result.findings;
    expect(brief(noCell, 'grid-no-cell')).toEqual(['7 warning task "refund-new" has no cell on the declared grid']);
  });

  it('whet lint exits 1 on errors, with file:line, severity, rule and a hint', async () => {
    const { dir } = lint(GRID_SUITE);
    const r = await runWhet(['lint', 'tasks.yaml'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('tasks.yaml:12: error grid-unknown-value: "refnud" is not a value of grid dimension "intent" (refund, exchange)\n  hint: use one of refund, exchange, or add "refnud" to grid.intent');
    expect(r.stdout).toContain('whet lint tasks.yaml: 5 tasks, 1 negative control, grid intent(2) × persona(2) = 4 cells, 1 covered; checked no skill');
    const j = JSON.parse((await runWhet(['lint', 'tasks.yaml', '--json'], { cwd: dir })).stdout);
    expect(j).toMatchObject({ suite: 'tasks.yaml', tasks: 5, negatives: 1, errors: 2 });
  });
});

describe('negative controls', () => {
  const noNeg = GRID_SUITE.replace('    negative: true\n', '');
  it('a suite without any is an error, or a warning with --allow-no-negatives', async () => {
    expect(brief(lint(noNeg).result.findings, 'negatives-none')).toEqual(['7 error no negative controls: no task is marked `negative: true` (nor is a should_trigger: false query)']);
    expect(lint(noNeg, { allowNoNegatives: true }).result.findings.find((f) => f.rule === 'negatives-none')?.severity).toBe('warning');
    const { dir } = lint(noNeg.replace('refnud', 'refund').replace('mood: angry', 'persona: new').replace('{intent: exchange}', '{intent: exchange, persona: new}'));
    expect((await runWhet(['lint'], { cwd: dir })).code).toBe(1);
    expect((await runWhet(['lint', '--allow-no-negatives'], { cwd: dir })).code).toBe(0);
  });

  it('counts a trigger set\'s should-not-trigger queries as negative controls', async () => {
    const set = join(repoRoot, 'test/fixtures/trigger-sets/notes/evals/trigger_evals.json');
    const r = lintSuite({ suite: set, skill: join(repoRoot, 'test/fixtures/trigger-sets/notes') }, tempDir());
    expect(r.negatives).toBe(3);
    expect(r.findings.filter((f) => f.rule === 'negatives-none')).toEqual([]);
    const positives = write(join(tempDir(), 'evals/only.json'), JSON.stringify([{ query: 'draft the release notes', should_trigger: true }]));
    expect(lintSuite({ suite: positives }, tempDir()).findings.map((f) => f.rule)).toContain('negatives-none');
  });
});

describe("an author's skill-creator evals.json, unchanged", () => {
  it('lints with exit 0: no negatives is a warning with its reason, the integer ids are the format\'s own', async () => {
    const dir = tempDir();
    cpSync(join(repoRoot, 'test/fixtures/evals-json/canonical'), join(dir, 'skill'), { recursive: true });
    const r = lintSuite({ suite: 'skill/evals/evals.json' }, dir);
    expect(r.errors, JSON.stringify(r.findings)).toBe(0);
    const neg = r.findings.filter((f) => f.rule === 'negatives-none');
    expect(neg.map((f) => f.severity)).toEqual(['warning']);
    expect(neg[0]!.message).toMatch(/evals\.json has no field for one.*acts on everything/);
    expect(neg[0]!.hint).toMatch(/negative_controls/);
    expect(r.findings.filter((f) => f.rule === 'id-positional')).toEqual([]);
    const cli = await runWhet(['lint', 'skill/evals/evals.json'], { cwd: dir });
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
    // A YAML suite with positional ids is still told so: only the format's own numbers are exempt.
    expect(lint('skill_id: s\nversion: "1.0"\ntasks:\n  - id: "1"\n    negative: true\n    prompt: p\n    judge: {type: contains, expected: [x]}\n').result.findings.map((f) => f.rule)).toContain('id-positional');
  });
});

describe('expectations that can never be met, or check nothing', () => {
  const suite = (judges: string) => `skill_id: s
version: "1.0"
tasks:
  - id: refund-policy
    negative: true
    prompt: What is the refund policy?
    judges:
${judges}`;

  it('contains vs not_contains: an error when the required text holds the forbidden one', () => {
    const fs = lint(suite('      - {type: contains, expected: ["Refund Policy", "days"]}\n      - {type: not_contains, expected: ["policy"]}')).result.findings;
    expect(brief(fs, 'expected-conflict')).toEqual(['8 error task "refund-policy": contains "Refund Policy" but not_contains "policy": any output with the first has the second, so the task can never pass']);
    // A case-sensitive not_contains can be dodged by writing the required text in another case.
    const ok = lint(suite('      - {type: contains, expected: ["Refund Policy"]}\n      - {type: not_contains, expected: ["policy"], case_sensitive: true}')).result.findings;
    expect(brief(ok, 'expected-conflict')).toEqual([]);
  });

  it('equals against not_contains, contains and another equals', () => {
    const eq = (more: string) => lint(suite(`      - {type: equals, expected: "30 days"}\n${more}`)).result.findings;
    expect(brief(eq('      - {type: not_contains, expected: ["Days"]}'), 'expected-conflict')).toEqual([
      '8 error task "refund-policy": equals "30 days" contains the forbidden "Days": the task can never pass',
    ]);
    expect(brief(eq('      - {type: contains, expected: ["weeks", "30 DAYS"]}'), 'expected-conflict')).toEqual([
      '9 error task "refund-policy": contains "weeks" but equals "30 days", which does not contain it: the task can never pass',
    ]);
    // Trimming is on by default, so surrounding whitespace does not make two equals judges differ.
    expect(brief(eq('      - {type: equals, expected: " 30 days\\n"}'), 'expected-conflict')).toEqual([]);
    expect(brief(eq('      - {type: equals, expected: "thirty days"}'), 'expected-conflict')).toEqual([
      '9 error task "refund-policy": two equals judges want different texts ("30 days" and "thirty days"): the task can never pass',
    ]);
    expect(brief(eq('      - {type: not_contains, expected: ["days"], case_sensitive: true}\n      - {type: contains, expected: ["days"]}'), 'expected-conflict')).toEqual([
      // Not the contains/not_contains pair: "DAYS" meets the first and dodges the case-sensitive second.
      '8 error task "refund-policy": equals "30 days" contains the forbidden "days": the task can never pass',
    ]);
  });

  it('whitespace-only and padded strings', () => {
    const fs = lint(suite('      - {type: contains, expected: [" ", " refund "]}\n      - {type: not_contains, expected: ["\\n"]}')).result.findings;
    expect(brief(fs, 'expected-blank')).toEqual([
      '8 warning task "refund-policy": contains " " is only whitespace: nearly every output passes it',
      '9 error task "refund-policy": not_contains "\\n" is only whitespace: nearly every output fails it',
    ]);
    expect(brief(fs, 'expected-padded')).toEqual(['8 warning task "refund-policy": contains " refund " has surrounding whitespace: it fails when the text starts or ends a line']);
  });

  it('regexes that match every output: always pass (warning), or never pass when negated (error)', () => {
    const fs = lint(suite('      - {type: regex, pattern: "x*"}\n      - {type: regex, pattern: "(a|)", negate: true}\n      - {type: regex, pattern: "^$", negate: true}')).result.findings;
    expect(brief(fs, 'regex-vacuous')).toEqual([
      '8 warning task "refund-policy": regex /x*/ matches every output (it matches the empty string), so it checks nothing',
      '9 error task "refund-policy": negated regex /(a|)/ matches every output, so it can never pass',
    ]);
    expect(matchesEverything('a?b*')).toBe(true);
    expect(matchesEverything('(?:)')).toBe(true);
    // Positional syntax makes "matches ''" say nothing about other inputs; those are left alone.
    for (const p of ['^$', '\\b', '(?=a)?', 'a', '$^', '(?!x)']) expect(matchesEverything(p)).toBe(false);
  });
});

describe('ids and judge configuration', () => {
  it('warns on positional ids, at the id line', () => {
    for (const id of ['task-1', 't1', 'T_07', 'case3', 'q12', '42', 'test.3', 'example-10']) expect(looksPositional(id)).toBe(true);
    for (const id of ['refund-typo', 'rn-group-01', 'task-refund', 'v2-api', 'tc-login-1']) expect(looksPositional(id)).toBe(false);
    const fs = lint(`skill_id: s\nversion: "1.0"\ntasks:\n  - prompt: Hello there\n    id: task-1\n    negative: true\n    judge: {type: contains, expected: [hi]}\n`).result.findings;
    expect(brief(fs, 'id-positional')).toEqual(['5 warning id "task-1" is a position, not a name: renumbering after an insert or delete would attach old results to another case']);
  });

  it('reports an id that is not a safe file name as an error finding beside the others, with a fix', async () => {
    const { dir, result } = lint(`skill_id: s\nversion: "1.0"\ntasks:\n  - id: greet\n    prompt: Hello there\n    judge: {type: contains, expected: [hi]}\n  - id: "Task 2!"\n    prompt: Hello there\n    judge: {type: contains, expected: [hi]}\n`);
    expect(brief(result.findings, 'id-unsafe')).toEqual(['7 error id "Task 2!" is not a safe file name, so whet evaluate refuses the suite']);
    expect(result.findings.find((f) => f.rule === 'id-unsafe')!.hint).toContain('"Task-2"');
    // The other rules still ran: the copied prompt and the missing negative controls are reported too.
    expect(result.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['duplicate-prompt', 'negatives-none']));
    expect((await runWhet(['lint', 'tasks.yaml'], { cwd: dir })).code).toBe(1);
  });

  it('shows the first five findings of a rule and counts the rest; --json keeps every one', async () => {
    const tasks = Array.from({ length: 8 }, (_, i) => `  - id: t${i + 1}\n    negative: true\n    prompt: Question number ${i + 1} about refunds\n    judge: {type: contains, expected: [hi]}\n`).join('');
    const { dir } = lint(`skill_id: s\nversion: "1.0"\ntasks:\n${tasks}`);
    const text = (await runWhet(['lint', 'tasks.yaml'], { cwd: dir })).stdout;
    expect(text.match(/warning id-positional/g)).toHaveLength(5);
    expect(text).toContain('tasks.yaml:20: warning id-positional: id "t5"');
    expect(text).not.toContain('id "t6"');
    expect(text).toContain('… and 3 more id-positional findings (whet lint --json lists every one)');
    expect(text).toMatch(/0 errors, 9 warnings/);
    const json = JSON.parse((await runWhet(['lint', 'tasks.yaml', '--json'], { cwd: dir })).stdout) as { findings: Finding[] };
    expect(json.findings.filter((f) => f.rule === 'id-positional')).toHaveLength(8);
  });

  it('refuses an llm-rubric judge with both rubric and spec at load, and errors on a spec that does not load', async () => {
    const dir = tempDir();
    write(join(dir, 'j.yaml'), 'name: j\nlabels: {PASS: ok, FAIL: bad}\ntemperature: 0.7\nfew_shots:\n  - {output: a, label: PASS, reasoning: r}\n  - {output: b, label: FAIL, reasoning: r}\n');
    write(join(dir, 'both.yaml'), `skill_id: s\nversion: "1.0"\ntasks:\n  - id: a-case\n    negative: true\n    prompt: Hello there\n    judge: {type: llm-rubric, rubric: r, spec: j.yaml}\n`);
    const both = await runWhet(['lint', 'both.yaml'], { cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/both\.yaml:7:\d+ tasks\[0\]\.judge\.spec: give either "rubric" or "spec", not both/);
    write(join(dir, 'tasks.yaml'), `skill_id: s\nversion: "1.0"\ntasks:\n  - id: a-case\n    negative: true\n    prompt: Hello there\n    judge: {type: llm-rubric, spec: j.yaml}\n`);
    const fs = lintSuite({ suite: 'tasks.yaml' }, dir).findings;
    expect(brief(fs, 'judge-spec-invalid')[0]).toMatch(/^7 error task "a-case": judge spec j\.yaml is invalid: .*temperature 0\.7 > 0\.2: judges must repeat their judgements/);
  });
});

describe('bad input', () => {
  it('a suite the loader refuses is exit 2 with its file:line:col, before any rule runs', async () => {
    const dir = tempDir();
    write(join(dir, 'tasks.yaml'), 'skill_id: s\nversion: "1.0"\ntasks:\n  - id: a\n    prompt: x\n    judge: {type: contains, expected: [x]}\n  - id: a\n    prompt: y\n    judge: {type: contains, expected: [y]}\n');
    const r = await runWhet(['lint', 'tasks.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tasks\.yaml:7:9 tasks\[1\]\.id: duplicate task id "a" \(first used at line 4\)/);
    expect((await runWhet(['lint', 'tasks.yaml', '--similarity', '2'], { cwd: dir })).code).toBe(2);
    expect((await runWhet(['lint'], { cwd: tempDir() })).stderr).toMatch(/no suite given and no tasks\.yaml/);
  });
});

describe('the shipped example suite', () => {
  it('lints without errors', () => {
    const r = lintSuite({ suite: 'examples/release-notes/tasks.yaml' }, repoRoot);
    expect(r.errors).toBe(0);
    expect(r.skill).toBe('examples/release-notes');
  });
});
