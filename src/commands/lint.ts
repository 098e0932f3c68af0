// Registers `whet lint` on the commander program (wired in by src/cli.ts, like `evaluate`).
//
//   whet lint [suite.yaml] [--skill DIR] [--judge SPEC]... [--similarity 0.9] [--allow-no-negatives] [--json]
//
// stdout: the findings and a summary line (or with --json the whole result). Exit 1 when any finding is
// an error, 0 otherwise; a suite that does not load is bad input (exit 2) through the CLI's error path.
import { InvalidArgumentError, type Command } from 'commander';
import type { CliDeps } from '../program/deps.js';
import { lintSuite, type LintResult } from '../lint/run.js';

const similarityArg = (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1) throw new InvalidArgumentError('--similarity must be a number in (0, 1]');
  return n;
};
const collect = (v: string, prev: string[] = []) => [...prev, v];

export function registerLintCommand(program: Command, deps: CliDeps, setCode: (c: number) => void): void {
  program
    .command('lint')
    .description('check a task suite: grid coverage, negative controls, near-duplicate prompts, leakage, impossible expectations, positional ids')
    .argument('[suite]', 'the task suite (default: tasks.yaml or task_suite.yaml here)')
    .option('--skill <dir>', 'the skill under test, checked for leaked cases (default: the suite’s folder when it holds SKILL.md)')
    .option('--judge <spec>', 'also check this judge spec’s few-shots for leaked cases (repeatable)', collect)
    .option('--similarity <x>', 'report prompts at least this similar (word-set Jaccard, default 0.9)', similarityArg)
    .option('--allow-no-negatives', 'a suite without negative controls is a warning, not an error')
    .option('--json', 'print the result as JSON')
    .action(async (suite: string | undefined, opts: Record<string, unknown>) => {
      const result = lintSuite(
        {
          ...(suite !== undefined ? { suite } : {}),
          ...(typeof opts.skill === 'string' ? { skill: opts.skill } : {}),
          ...(Array.isArray(opts.judge) ? { judges: opts.judge as string[] } : {}),
          ...(typeof opts.similarity === 'number' ? { similarity: opts.similarity } : {}),
          allowNoNegatives: opts.allowNoNegatives === true,
        },
        deps.cwd,
      );
      deps.stdout(opts.json ? `${JSON.stringify(result, null, 2)}\n` : `${renderLint(result)}\n`);
      setCode(result.errors > 0 ? 1 : 0);
    });
}

// Lint output for people: one finding a block, `file:line: severity rule: message` then the fix hint,
// and a closing line with the suite's shape (tasks, negative controls, grid coverage) and the counts —
// The evidence report (docs/guides/reports.md) starts with the eval set's shape, so lint states it even when all is well.
// A rule that fires on many tasks (positional ids across a whole case file, say) shows its first few
// findings and a count, so it cannot bury the others; --json keeps every one.
const SHOWN_PER_RULE = 5;

export function renderLint(r: LintResult): string {
  const lines: string[] = [];
  const seen = new Map<string, number>();
  for (const f of r.findings) {
    const n = (seen.get(f.rule) ?? 0) + 1;
    seen.set(f.rule, n);
    if (n > SHOWN_PER_RULE) continue;
    lines.push(`${f.file}:${f.line}: ${f.severity} ${f.rule}: ${f.message}`);
    lines.push(`  hint: ${f.hint}`);
  }
  for (const [rule, n] of seen) {
    if (n > SHOWN_PER_RULE) lines.push(`… and ${n - SHOWN_PER_RULE} more ${rule} findings (whet lint --json lists every one)`);
  }
  const grid = r.grid
    ? `grid ${Object.entries(r.grid.dimensions)
        .map(([d, n]) => `${d}(${n})`)
        .join(' × ')} = ${r.grid.cells} cells, ${r.grid.covered} covered`
    : 'no grid';
  const checked = [r.skill ? `skill ${r.skill}` : 'no skill (pass --skill DIR to check it for leaked cases)', ...r.judge_specs.map((s) => `judge ${s}`)];
  lines.push(
    `whet lint ${r.suite}: ${r.tasks} task${r.tasks === 1 ? '' : 's'}, ${r.negatives} negative control${r.negatives === 1 ? '' : 's'}, ${grid}; checked ${checked.join(', ')}`,
  );
  lines.push(`${r.errors} error${r.errors === 1 ? '' : 's'}, ${r.warnings} warning${r.warnings === 1 ? '' : 's'}`);
  return lines.join('\n');
}
