// The task-suite format: the seed's v1.0 (skill_id, version, tasks[id, prompt, judge, description,
// timeout_seconds]) plus whetstone's optional extensions (category, cell, negative, judges, split,
// pass_k). Objects are strict so a misspelt key is reported instead of silently ignored.
import { z } from 'zod';
import type { Catalog } from './intent-catalog.js';
import type { IntentCase } from './intent-types.js';
import { safeId } from './safe-id-schema.js';

// Ids become file names and run-dir names: one definition for every reader (src/config/safe-id.ts),
// re-exported here for the readers that already import it from the suite format.
export { SAFE_ID } from './safe-id.js';
export { safeId } from './safe-id-schema.js';

const nonEmpty = z.string().min(1, 'must not be empty');
const stringList = z.array(nonEmpty).min(1, 'must list at least one string');

export const containsJudge = z.strictObject({
  type: z.literal('contains'),
  expected: stringList,
  case_sensitive: z.boolean().optional(),
});
export const notContainsJudge = z.strictObject({
  type: z.literal('not_contains'),
  expected: stringList,
  case_sensitive: z.boolean().optional(),
});
export const regexJudge = z.strictObject({
  type: z.literal('regex'),
  pattern: nonEmpty,
  flags: z.string().regex(/^[imsu]*$/, 'flags may only use i, m, s, u').optional(),
  /** When true the judge passes if the pattern does NOT match. */
  negate: z.boolean().optional(),
});
export const equalsJudge = z.strictObject({
  type: z.literal('equals'),
  expected: z.string(),
  case_sensitive: z.boolean().optional(),
  /** Trim surrounding whitespace on both sides first (default true). */
  trim: z.boolean().optional(),
});
export const jsonJudge = z.strictObject({
  type: z.literal('json'),
  /** Inline JSON Schema, or a path to one relative to the suite. */
  schema: z.union([z.record(z.string(), z.unknown()), nonEmpty]).optional(),
});
export const scriptJudge = z.strictObject({
  type: z.literal('script'),
  /** Program and arguments (an array is never passed through a shell); a string is split on spaces. */
  command: z.union([z.array(nonEmpty).min(1), nonEmpty], {
    // zod's own union message is a bare "Invalid input"; say what a script judge needs.
    error: (iss) => (iss.input === undefined ? 'required for a script judge (a command line, or a list of program and arguments)' : 'expected a command line or a non-empty list of program and arguments'),
  }),
  timeout_seconds: z.number().positive().optional(),
});
export const pytestJudge = z.strictObject({
  type: z.literal('pytest'),
  test_file: nonEmpty,
  timeout_seconds: z.number().positive().optional(),
});
export const llmRubricJudge = z.strictObject({
  type: z.enum(['llm-rubric', 'llm_rubric']),
  rubric: nonEmpty.optional(),
  /** A judge spec file (YAML) written like code; see issue #4. */
  spec: nonEmpty.optional(),
  pass_threshold: z.number().min(0).max(1).optional(),
});

/** Scores the attempt's decision against intent case `case_id` of the suite's `intents:` (src/judges/tool-call.ts). */
export const toolCallJudge = z.strictObject({
  type: z.literal('tool_call'),
  case_id: nonEmpty,
});

export const JUDGE_TYPES = ['contains', 'not_contains', 'regex', 'equals', 'json', 'script', 'pytest', 'llm-rubric', 'llm_rubric', 'tool_call'] as const;

export const judgeSpec = z.discriminatedUnion('type', [
  containsJudge,
  notContainsJudge,
  regexJudge,
  equalsJudge,
  jsonJudge,
  scriptJudge,
  pytestJudge,
  llmRubricJudge,
  toolCallJudge,
]);
export type JudgeSpec = z.infer<typeof judgeSpec>;

export const taskSchema = z.strictObject({
  id: safeId,
  prompt: nonEmpty,
  description: z.string().optional(),
  judge: judgeSpec.optional(),
  judges: z.array(judgeSpec).min(1).optional(),
  timeout_seconds: z.number().positive().optional(),
  category: safeId.optional(),
  cell: z.record(z.string(), z.string()).optional(),
  negative: z.boolean().optional(),
  split: z.enum(['train', 'holdout']).optional(),
  pass_k: z.number().int().min(1).max(100).optional(),
  critical: z.boolean().optional(),
  /** The agent should (true) or should not (false) invoke the skill: trigger rate and false triggers. */
  should_trigger: z.boolean().optional(),
  /**
   * A chat prompt's system turn (an imported promptfoo chat prompt): sent as the system text before the
   * skill's, so the app's instructions and the skill under test both reach the model as system text.
   */
  system: nonEmpty.optional(),
  /** Run and reported but never graded (a promptfoo test without assertions): kept out of every rate. */
  unjudged: z.literal(true).optional(),
});
export type TaskInput = z.infer<typeof taskSchema>;

export const suiteSchema = z.strictObject({
  skill_id: nonEmpty,
  version: z.union([z.literal('1.0'), z.literal(1)], {
    error: (iss) => (iss.input === undefined ? 'required: "1.0" (the seed\'s suite format)' : `expected "1.0" (the seed's suite format), got ${JSON.stringify(iss.input)}`),
  }),
  description: z.string().optional(),
  /** Declared grid: dimension → its values (used by lint and reports). */
  grid: z.record(z.string(), z.array(z.string()).min(1)).optional(),
  /** Optional when `intents:` is given (the loader requires at least one of the two). */
  tasks: z.array(taskSchema).min(1, 'the suite has no tasks').optional(),
  /** An intent suite (src/intents): each case becomes a task judged by `tool_call`. Paths are relative to the suite. */
  intents: z.strictObject({ cases: nonEmpty, catalog: nonEmpty }).optional(),
});
export type SuiteInput = z.infer<typeof suiteSchema>;

/**
 * The same format with any non-empty task id, for `whet lint`: an unsafe id is one finding among the
 * others there (with a fix hint), not a load error that hides every other finding.
 */
export const lintSuiteSchema = suiteSchema.extend({
  tasks: z.array(taskSchema.extend({ id: nonEmpty })).min(1, 'the suite has no tasks').optional(),
});

/** A task after loading: exactly one list of judges, and the defaults filled in. */
export interface Task {
  id: string;
  prompt: string;
  /** The system turn sent before the skill's text (taskSchema `system`). */
  system?: string;
  description?: string;
  judges: JudgeSpec[];
  timeoutMs: number;
  category: string;
  cell?: Record<string, string>;
  negative: boolean;
  split?: 'train' | 'holdout';
  passK?: number;
  critical: boolean;
  shouldTrigger?: boolean;
  /** Position in the suite's task list (its line is found on demand with the located parser). */
  index: number;
  /** Files copied into the task's workspace before the engine runs (skill-creator evals' `files`). */
  files?: TaskFile[];
  /** For each judge, the author's expectation it grades (same order as `judges`), when the suite had them. */
  expectations?: string[];
  /** Run and reported, never graded: the source gave nothing to judge it against (see evals-json.ts). */
  unjudged?: boolean;
  /** Where a task imported from another format came from: its own id and name, as the author wrote them. */
  origin?: TaskOrigin;
}

/** A file placed in the workspace: `source` on disk, `path` relative to the workspace (as in the skill root). */
export interface TaskFile {
  source: string;
  path: string;
}

export interface TaskOrigin {
  format: 'skill-creator-evals' | 'skill-creator-trigger' | 'promptfoo';
  id?: string | number;
  name?: string;
}

export interface Suite {
  path: string;
  dir: string;
  skillId: string;
  description?: string;
  grid?: Record<string, string[]>;
  tasks: Task[];
  /** sha256 of the suite's bytes plus every fixture file its judges name (and the intent cases and catalogue). */
  contentHash: string;
  /** Present when the suite declares `intents:`; tool_call judges and the intent decision path read it. */
  intents?: SuiteIntents;
  /** Absent for whetstone's YAML; the other format the file was read in, unchanged, otherwise. */
  format?: TaskOrigin['format'];
}

export interface SuiteIntents {
  cases: Map<string, IntentCase>;
  catalog: Catalog;
}
