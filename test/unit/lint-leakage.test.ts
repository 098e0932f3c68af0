// Leakage (docs/method.md: Never): eval cases stay unseen. The bar from the issue: an eval case pasted
// into a judge's few-shots is reported by `whet lint` as leakage — at the few-shot's line, as an error.
import { describe, expect, it } from 'vitest';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintSuite } from '../../src/lint/index.js';
import { repoRoot, tempDir, write } from '../support/cli.js';
import { runWhet } from '../fixtures/calibrate/harness.js';

const leaky = join(repoRoot, 'test/fixtures/lint/leaky');

function copyLeaky(): string {
  const dir = tempDir();
  cpSync(leaky, dir, { recursive: true });
  return dir;
}

describe('the leaky fixture', () => {
  it("reports the case pasted into the judge's few-shots as an error at the few-shot's line", () => {
    const r = lintSuite({ suite: 'tasks.yaml' }, leaky);
    const f = r.findings.find((x) => x.rule === 'leak-prompt-in-judge');
    expect(f).toEqual({
      file: 'judges/quality.yaml',
      line: 7,
      severity: 'error',
      rule: 'leak-prompt-in-judge',
      task: 'late-delivery',
      message: 'the prompt of task "late-delivery" (tasks.yaml:14) appears verbatim in few_shots[0].output of judge refund-quality',
      hint: 'never reuse eval cases as few-shot examples: write a new example of the same kind for the judge',
    });
    expect(readFileSync(join(leaky, 'judges/quality.yaml'), 'utf8').split('\n')[6]).toContain('My parcel arrived three weeks late');
  });

  it('reports the case pasted (re-wrapped) into SKILL.md as an error at the task, naming the skill line', () => {
    const r = lintSuite({ suite: 'tasks.yaml' }, leaky);
    expect(r.skill).toBe('.');
    const f = r.findings.find((x) => x.rule === 'leak-prompt-in-skill');
    expect(f).toMatchObject({ file: 'tasks.yaml', line: 9, severity: 'error', task: 'duplicate-order' });
    expect(f!.message).toBe('the prompt of task "duplicate-order" (tasks.yaml:9) appears verbatim in SKILL.md:12');
  });

  it('whet lint exits 1 and prints both, with file:line', async () => {
    const r = await runWhet(['lint', 'tasks.yaml'], { cwd: leaky });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('judges/quality.yaml:7: error leak-prompt-in-judge: the prompt of task "late-delivery" (tasks.yaml:14) appears verbatim');
    expect(r.stdout).toContain('tasks.yaml:9: error leak-prompt-in-skill:');
    expect(r.stdout).toMatch(/^2 errors, \d+ warnings?$/m);
  });

  it('is clean once the pasted texts are replaced by fresh ones', () => {
    const dir = copyLeaky();
    const spec = join(dir, 'judges/quality.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('My parcel arrived three weeks late and the cake inside was spoiled, what can you do?', 'The lamp I bought came with a cracked shade.'));
    const skill = join(dir, 'SKILL.md');
    writeFileSync(skill, readFileSync(skill, 'utf8').replace(/A customer once wrote:[\s\S]*?them\?\n/, 'A customer once asked about a double charge.\n'));
    const r = lintSuite({ suite: 'tasks.yaml' }, dir);
    expect(r.findings.filter((f) => f.rule.startsWith('leak-'))).toEqual([]);
    expect(r.errors).toBe(0);
  });
});

describe('leakage rules', () => {
  const suite = (prompt: string, extra = '') => `skill_id: s
version: "1.0"
tasks:
  - id: case-a
    negative: true
    prompt: ${JSON.stringify(prompt)}
    judge: {type: contains, expected: ["the refund is issued to the original card"]}
${extra}`;

  it('finds a partial paste of 12 consecutive words as a warning', () => {
    const dir = tempDir();
    write(join(dir, 'tasks.yaml'), suite('Please explain, slowly and in detail, how the refund for a cancelled annual plan is calculated when I upgraded midway'));
    write(join(dir, 'SKILL.md'), '# S\nWhen asked how the refund for a cancelled annual plan is calculated when I upgraded, explain proration.\n');
    const f = lintSuite({ suite: 'tasks.yaml' }, dir).findings.find((x) => x.rule === 'leak-partial');
    expect(f).toMatchObject({ severity: 'warning', file: 'tasks.yaml', line: 4, task: 'case-a' });
    expect(f!.message).toContain('12 consecutive words of the prompt of task "case-a"');
  });

  it('finds a distinctive expected string in the skill (warning), ignores short prompts and short strings', () => {
    const dir = tempDir();
    write(join(dir, 'tasks.yaml'), suite('Refund?'));
    write(join(dir, 'SKILL.md'), '# S\nRefund?\nAlways say: The refund is issued to the original card.\n');
    const r = lintSuite({ suite: 'tasks.yaml' }, dir);
    expect(r.findings.filter((f) => f.rule.startsWith('leak-')).map((f) => [f.rule, f.severity, f.line])).toEqual([['leak-expected', 'warning', 7]]);
  });

  it('checks the skill given with --skill and judge specs given with --judge', () => {
    const dir = tempDir();
    const prompt = 'How long does a refund take to reach a credit card?';
    write(join(dir, 'suite/tasks.yaml'), suite(prompt));
    write(join(dir, 'skill/SKILL.md'), `# S\n${prompt}\n`);
    write(join(dir, 'j.yaml'), `name: j\nlabels: {PASS: ok, FAIL: bad}\nfew_shots:\n  - {output: "${prompt}", label: PASS, reasoning: r}\n  - {output: "x", label: FAIL, reasoning: r}\n`);
    expect(lintSuite({ suite: 'suite/tasks.yaml' }, dir).findings.filter((f) => f.rule.startsWith('leak-'))).toEqual([]);
    const r = lintSuite({ suite: 'suite/tasks.yaml', skill: 'skill', judges: ['j.yaml'] }, dir);
    expect(r.findings.filter((f) => f.rule.startsWith('leak-prompt')).map((f) => [f.rule, f.file])).toEqual([
      ['leak-prompt-in-judge', 'j.yaml'],
      ['leak-prompt-in-skill', 'suite/tasks.yaml'],
    ]);
  });
});
