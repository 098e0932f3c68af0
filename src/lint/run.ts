// `whet lint`: loads the suite (the loader's own checks come first — a suite that does not load is bad
// input, exit 2), the skill under test and the judge specs, then runs every rule. Findings are sorted by
// file and line so the output reads top to bottom like the files.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fastGlob } from '../core/lazy.js';
import { displayPath, loadYaml, readYaml } from '../config/load-yaml.js';
import { loadSuite } from '../config/suite.js';
import { skillRootOf } from '../config/evals-json.js';
import { lintSuiteSchema, type Suite } from '../config/suite-schema.js';
import type { z } from 'zod';

type LintSuiteInput = z.infer<typeof lintSuiteSchema>;
import { UsageError } from '../core/errors.js';
import { SKILL_RESOURCE_DIRS } from '../skill/read.js';
import { duplicatesRule } from './duplicates.js';
import { expectedRule } from './expected.js';
import { gridRule, negativesRule, idsRule, unsafeIdsRule, cellKey, isNegativeControl } from './shape.js';
import { loadSuiteJudgeSpecs } from './judge-specs.js';
import { leakageRule } from './leakage.js';
import { haystack, type Haystack } from './text.js';
import { DEFAULT_SIMILARITY, type Finding, type LintContext, type Rule } from './types.js';

export interface LintRunOptions {
  /** The suite file; default tasks.yaml, then task_suite.yaml, in cwd. */
  suite?: string;
  /** The skill folder (or its SKILL.md); default the suite's folder when it holds SKILL.md. */
  skill?: string;
  /** Extra judge spec files to check for leakage. */
  judges?: string[];
  similarity?: number;
  allowNoNegatives?: boolean;
}

export interface LintResult {
  suite: string;
  skill: string | null;
  judge_specs: string[];
  tasks: number;
  negatives: number;
  grid: { dimensions: Record<string, number>; cells: number; covered: number } | null;
  findings: Finding[];
  errors: number;
  warnings: number;
}

export const RULES: readonly Rule[] = [gridRule, negativesRule, duplicatesRule, leakageRule, expectedRule, idsRule, unsafeIdsRule];

/** Skill files larger than this are not scanned (they are data, not instructions). */
const MAX_SKILL_FILE_BYTES = 2 * 1024 * 1024;

export function lintSuite(o: LintRunOptions, cwd: string): LintResult {
  const suitePath = findSuite(o.suite, cwd);
  const similarity = o.similarity ?? DEFAULT_SIMILARITY;
  if (!(similarity > 0 && similarity <= 1)) throw new UsageError('--similarity must be a number in (0, 1]');
  const suite = loadSuite(suitePath, { lenientIds: true });
  const located = suite.format ? foreignLines(suite) : loadYaml(suite.path, lintSuiteSchema, 'task suite');
  const file = displayPath(suite.path, cwd);
  const casesFile = located.value.intents ? displayPath(resolve(suite.dir, located.value.intents.cases), cwd) : undefined;
  const base = {
    suite,
    raw: located.value,
    file,
    ...(casesFile !== undefined ? { casesFile } : {}),
    lineOf: located.lineOf,
    options: { similarity, allowNoNegatives: o.allowNoNegatives ?? false },
  };
  const specs = loadSuiteJudgeSpecs(base, o.judges ?? [], cwd);
  // skill-creator keeps evals/ inside the skill: its SKILL.md is one folder up from the suite.
  const skillDir = findSkill(o.skill, suite.format === 'skill-creator-evals' ? skillRootOf(suite.path) : suite.dir, cwd);
  const exclude = new Set([suite.path, ...specs.specs.map((s) => s.loaded.path)]);
  const ctx: LintContext = { ...base, judgeSpecs: specs.specs, skill: skillDir ? skillTexts(skillDir, exclude, cwd) : [] };

  const findings = [...specs.findings, ...RULES.flatMap((rule) => rule(ctx))].sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.rule.localeCompare(b.rule),
  );
  const errors = findings.filter((f) => f.severity === 'error').length;
  return {
    suite: file,
    skill: skillDir ? (resolve(skillDir) === resolve(cwd) ? '.' : displayPath(skillDir, cwd)) : null,
    judge_specs: specs.specs.map((s) => s.shown),
    tasks: suite.tasks.length,
    negatives: suite.tasks.filter(isNegativeControl).length,
    grid: gridSummary(ctx),
    findings,
    errors,
    warnings: findings.length - errors,
  };
}

/**
 * A suite read from another format (skill-creator's evals.json, a trigger set) seen as the YAML the rules
 * read: its loaded tasks, each finding placed at the line of the entry it came from (`evals[i]`, `[i]`…).
 */
function foreignLines(suite: Suite): { value: LintSuiteInput; lineOf: (path: (string | number)[]) => number } {
  const { raw, src } = readYaml(suite.path, 'task suite');
  // Where the i-th task's entry sits; a split trigger set's two lists have no one index, so its line is 1.
  const entry = suite.format === 'skill-creator-evals' ? ['evals'] : Array.isArray(raw) ? [] : typeof raw === 'object' && raw !== null && 'cases' in raw ? ['cases'] : null;
  const value: LintSuiteInput = {
    skill_id: suite.skillId,
    version: '1.0',
    tasks: suite.tasks.map((t) => ({ id: t.id, prompt: t.prompt, ...(t.judges.length ? { judges: t.judges } : {}), category: t.category, ...(t.negative ? { negative: true } : {}), ...(t.split ? { split: t.split } : {}) })),
  };
  const lineOf = (path: (string | number)[]) => (path[0] === 'tasks' && typeof path[1] === 'number' && entry ? src.lineOf([...entry, path[1]]) : 1);
  return { value, lineOf };
}

function findSuite(given: string | undefined, cwd: string): string {
  if (given) return resolve(cwd, given);
  for (const name of ['tasks.yaml', 'task_suite.yaml']) if (existsSync(join(cwd, name))) return join(cwd, name);
  throw new UsageError('no suite given and no tasks.yaml or task_suite.yaml here: run `whet lint path/to/tasks.yaml`');
}

function findSkill(given: string | undefined, suiteDir: string, cwd: string): string | undefined {
  if (given === undefined) return existsSync(join(suiteDir, 'SKILL.md')) ? suiteDir : undefined;
  const p = resolve(cwd, given);
  let dir = p;
  try {
    if (!statSync(p).isDirectory()) dir = dirname(p);
  } catch {
    throw new UsageError(`--skill ${given}: not found`);
  }
  if (!existsSync(join(dir, 'SKILL.md'))) throw new UsageError(`--skill ${given}: no SKILL.md in ${displayPath(dir, cwd)}`);
  if (dir !== p && basename(p) !== 'SKILL.md') throw new UsageError(`--skill ${given}: give the skill folder or its SKILL.md`);
  return dir;
}

/** SKILL.md and the text files of its resource folders: what an agent loading the skill can read. */
function skillTexts(dir: string, exclude: Set<string>, cwd: string): Haystack[] {
  const rels = ['SKILL.md', ...fastGlob().sync(SKILL_RESOURCE_DIRS.map((d) => `${d}/**/*`), { cwd: dir, onlyFiles: true, dot: false }).sort()];
  const out: Haystack[] = [];
  for (const rel of rels) {
    const full = join(dir, rel);
    if (exclude.has(full)) continue;
    let bytes: Buffer;
    try {
      if (statSync(full).size > MAX_SKILL_FILE_BYTES) continue;
      bytes = readFileSync(full);
    } catch {
      continue;
    }
    if (bytes.includes(0)) continue;
    out.push(haystack(displayPath(full, cwd), bytes.toString('utf8')));
  }
  return out;
}

function gridSummary(ctx: LintContext): LintResult['grid'] {
  const grid = ctx.suite.grid;
  if (!grid || Object.keys(grid).length === 0) return null;
  const dims = Object.keys(grid);
  const dimensions = Object.fromEntries(dims.map((d) => [d, grid[d]!.length]));
  const cells = dims.reduce((n, d) => n * grid[d]!.length, 1);
  const covered = new Set<string>();
  for (const t of ctx.suite.tasks) {
    const cell = t.cell;
    if (cell && dims.every((d) => cell[d] !== undefined && grid[d]!.includes(cell[d]!)) && Object.keys(cell).every((d) => d in grid)) {
      covered.add(cellKey(dims, cell));
    }
  }
  return { dimensions, cells, covered: covered.size };
}
