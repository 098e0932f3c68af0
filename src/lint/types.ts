// What lint rules see and what they report. Each finding carries its place (`file:line`), a severity
// (errors fail `whet lint` with exit 1, warnings do not), the rule that found it, and a fix hint — a
// finding without a way forward only teaches people to ignore the linter.
import type { Suite, SuiteInput, Task } from '../config/suite-schema.js';
import type { LoadedJudgeSpec } from '../judges/spec-schema.js';
import type { Haystack } from './text.js';

export type Severity = 'error' | 'warning';

export interface Finding {
  file: string;
  line: number;
  severity: Severity;
  rule: string;
  message: string;
  hint: string;
  /** The task the finding is about, when there is one. */
  task?: string;
}

export interface LintOptions {
  /** Near-duplicate prompts at or above this similarity (token-set Jaccard) are reported. */
  similarity: number;
  /** A suite without negative controls is a warning instead of an error. */
  allowNoNegatives: boolean;
}

export const DEFAULT_SIMILARITY = 0.9;

export interface LintContext {
  suite: Suite;
  /** The suite as written (to tell `judge:` from `judges:` when pointing at a line). */
  raw: SuiteInput;
  /** Display path of the suite file. */
  file: string;
  /** Display path of the intent case file, when the suite has `intents:` (its cases are tasks too). */
  casesFile?: string;
  lineOf(path: (string | number)[]): number;
  options: LintOptions;
  /** Text files of the skill under test, each searchable. */
  skill: Haystack[];
  /** Judge specs the suite names (and any given with --judge), loaded. */
  judgeSpecs: { loaded: LoadedJudgeSpec; shown: string }[];
}

export type Rule = (ctx: LintContext) => Finding[];

/** YAML path of a task's k-th judge, as written. */
export function judgePath(ctx: Pick<LintContext, 'raw'>, taskIndex: number, k: number): (string | number)[] {
  const t = ctx.raw.tasks?.[taskIndex];
  return t?.judges ? ['tasks', taskIndex, 'judges', k] : ['tasks', taskIndex, 'judge'];
}

export interface Place {
  file: string;
  line: number;
}

/**
 * Where a task (or one of its fields, e.g. `['id']`) is written, so a finding points where the fix goes:
 * its entry under `tasks:`, or, for a case of the suite's `intents:`, its line in the case file (a case
 * is one line).
 */
export function taskPlace(ctx: LintContext, t: Pick<Task, 'id' | 'index'>, field: (string | number)[] = []): Place {
  const fromCases = ctx.casesFile !== undefined && t.index >= (ctx.raw.tasks?.length ?? 0);
  const c = fromCases ? ctx.suite.intents?.cases.get(t.id) : undefined;
  if (c && ctx.casesFile !== undefined) return { file: ctx.casesFile, line: c.line };
  return { file: ctx.file, line: ctx.lineOf(['tasks', t.index, ...field]) };
}

/** `line N` beside a place in the same file, `file:N` beside one elsewhere. */
export function placeLabel(here: Place, there: Place): string {
  return here.file === there.file ? `line ${there.line}` : `${there.file}:${there.line}`;
}
