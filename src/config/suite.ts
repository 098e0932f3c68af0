// Loads a task suite: the seed's v1.0 format unchanged, plus whetstone's extensions. Beyond the schema it
// checks what zod cannot see — duplicate ids, a task with both or neither of judge/judges, regexes that
// do not compile, fixture files that are missing or outside the suite's folder — each reported at the
// task's line. The content hash covers the suite's bytes and every fixture file a judge names, so the
// baseline cache notices an edited fixture as well as an edited suite.
import { fixtureInside } from './fixture-path.js';
import { createHash, type Hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ConfigError, ConfigErrors } from '../core/errors.js';
import { detach, StringPool } from '../core/strings.js';
import { pytestFileInSuite } from './suite-files.js';
import { yamlSource, type YamlSource } from './load-yaml.js';
import { NotPlain, sliceSuite } from './suite-slices.js';
import { lintSuiteSchema, suiteSchema, type JudgeSpec, type Suite, type SuiteInput, type SuiteIntents, type Task, type TaskInput } from './suite-schema.js';
import { loadSuiteIntents } from './suite-intents.js';
import { isJsonSuitePath, loadJsonSuite } from './json-suite.js';

export const DEFAULT_TASK_TIMEOUT_MS = 120_000;

export interface LoadSuiteOptions {
  defaultTimeoutMs?: number;
  /** Accept ids that are not safe file names (only `whet lint`, which reports them as findings). */
  lenientIds?: boolean;
}

export function loadSuite(file: string, opts: LoadSuiteOptions = {}): Suite {
  return loadSuiteTracked(file, opts).suite;
}

/**
 * A suite with what its content hash was made of beyond the suite's own bytes: each fixture file, by its
 * path from the suite's folder, in the order hashed (the checked copy, suite-copy.ts, hashes them again
 * to know it is still current). `fixtures` is null for a suite whose hash covers more than that (intents,
 * a JSON format), which is never copied.
 */
export function loadSuiteTracked(file: string, opts: LoadSuiteOptions = {}): { suite: Suite; fixtures: string[] | null } {
  // skill-creator's evals.json and trigger eval sets are read as they are (json-suite.ts); their ids are made safe there.
  if (isJsonSuitePath(file)) return { suite: loadJsonSuite(file, opts.defaultTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS), fixtures: null };
  const path = resolve(file);
  const schema = opts.lenientIds ? lintSuiteSchema : suiteSchema;
  const src = yamlSource(path, 'task suite');
  // Hashed now and let go: the file's bytes (as large as the suite) need not live while it is parsed.
  // Each reading below takes its own copy of the hash, since it adds the fixture files to it.
  const hash = createHash('sha256').update(src.bytes);
  src.bytes = Buffer.alloc(0);
  // A plainly shaped suite is read in slices, each task turned into its Task as it is read (suite-slices.ts);
  // if a slice does not read cleanly, the whole document is read instead, which locates every problem.
  const sliced = sliceSuite(src.text, schema);
  if (sliced) {
    try {
      const fixtures: string[] = [];
      const suite = buildSuite(path, src, hash.copy(), sliced.head as Omit<SuiteInput, 'tasks'>, sliced.count, sliced.tasks as Iterable<TaskInput>, opts, fixtures);
      return { suite, fixtures: suite.intents ? null : fixtures };
    } catch (err) {
      if (!(err instanceof NotPlain)) throw err;
    }
  }
  const value: SuiteInput = src.validate(schema, src.reparse());
  const own = value.tasks ?? [];
  const fixtures: string[] = [];
  const suite = buildSuite(path, src, hash, value, own.length, own, opts, fixtures);
  return { suite, fixtures: suite.intents ? null : fixtures };
}

function buildSuite(path: string, loaded: YamlSource, hash: Hash, head: Omit<SuiteInput, 'tasks'>, count: number, own: Iterable<TaskInput>, opts: LoadSuiteOptions, fixtures: string[]): Suite {
  const dir = dirname(path);
  const problems: ConfigError[] = [];
  const at = loaded.at;
  const seen = new Map<string, number>();
  const tasks: Task[] = [];
  const timeoutMs = opts.defaultTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
  // Suites repeat the same judges across many tasks: one shared object per distinct spec keeps a large
  // suite's memory at its distinct content (judges are read, never changed, after loading).
  const interned = new Map<string, JudgeSpec[]>();
  // The sliced reader hands repeated judge lists over as one object already (suite-slices.ts judgesOnce).
  const byIdentity = new Map<object, JudgeSpec[]>();
  const intern = (js: JudgeSpec[], from: object | undefined): JudgeSpec[] => {
    const known = from && byIdentity.get(from);
    if (known) return known;
    const key = JSON.stringify(js);
    const seen = interned.get(key) ?? js;
    interned.set(key, seen);
    if (from) byIdentity.set(from, seen);
    return seen;
  };
  // Judge lists (interned above) that checked clean, with the fixture files they name.
  const checked = new Map<JudgeSpec[], string[]>();
  // A category names a group of tasks: one string per distinct category rather than one per task.
  const categories = new StringPool();
  if (count === 0 && !head.intents) throw new ConfigError('the suite has no tasks: give "tasks", "intents", or both', at([]));
  let intents: SuiteIntents | undefined;
  let intentTasks: Task[] = [];
  if (head.intents) {
    const r = loadSuiteIntents(head.intents, dir, { at, hash, firstIndex: count, timeoutMs });
    if (Array.isArray(r)) throw r.length === 1 ? r[0]! : new ConfigErrors(r);
    ({ intents, tasks: intentTasks } = r);
  }

  let i = -1;
  for (const t of own) {
    i++;
    const first = seen.get(t.id);
    if (first !== undefined) {
      const firstLine = loaded.lineOf(['tasks', first]);
      problems.push(new ConfigError(`duplicate task id "${t.id}" (first used at line ${firstLine})`, at(['tasks', i, 'id']), `tasks[${i}].id`));
    } else seen.set(t.id, i);

    if (t.judge && t.judges) problems.push(new ConfigError('give either "judge" or "judges", not both', at(['tasks', i]), `tasks[${i}]`));
    const judges: JudgeSpec[] = intern(t.judges ?? (t.judge ? [t.judge] : []), t.judges ?? t.judge);
    if (judges.length === 0 && !t.unjudged) problems.push(new ConfigError('a task needs a "judge" (or a "judges" list), or "unjudged: true"', at(['tasks', i]), `tasks[${i}].judge`));
    if (judges.length > 0 && t.unjudged) problems.push(new ConfigError('an unjudged task has no judge: drop "unjudged" or its judges', at(['tasks', i, 'unjudged']), `tasks[${i}].unjudged`));

    // A list shared with an earlier task that checked clean is clean here too (the same specs, folder and
    // intents) and names the same fixtures, each hashed again in its place; a list with problems is
    // checked at every task, so each is reported where it is written.
    const clean = checked.get(judges);
    if (clean) for (const rel of clean) fixtures.push(rel);
    else {
      const before = problems.length;
      const named: string[] = [];
      judges.forEach((j, k) => {
        const jp = t.judges ? ['tasks', i, 'judges', k] : ['tasks', i, 'judge'];
        const field = t.judges ? `tasks[${i}].judges[${k}]` : `tasks[${i}].judge`;
        for (const fixture of checkJudge(j, dir, intents, (msg, key) => problems.push(new ConfigError(msg, at([...jp, key]), `${field}.${key}`)))) {
          named.push(relative(dir, fixture));
        }
      });
      for (const rel of named) fixtures.push(rel);
      if (problems.length === before) checked.set(judges, named);
    }

    // Optional fields only when given: a large suite holds one task per line of its file, and an
    // `undefined` field is 8 bytes of each. `split` stays, set in place when splits are assigned.
    const task: Task = {
      id: detach(t.id),
      prompt: detach(t.prompt),
      judges,
      timeoutMs: t.timeout_seconds !== undefined ? Math.round(t.timeout_seconds * 1000) : timeoutMs,
      category: t.category === undefined ? 'uncategorized' : categories.intern(detach(t.category)),
      negative: t.negative ?? false,
      split: t.split,
      critical: t.critical ?? false,
      index: i,
    };
    if (t.description !== undefined) task.description = detach(t.description);
    if (t.cell !== undefined) task.cell = t.cell;
    if (t.pass_k !== undefined) task.passK = t.pass_k;
    if (t.should_trigger !== undefined) task.shouldTrigger = t.should_trigger;
    if (t.system !== undefined) task.system = detach(t.system);
    if (t.unjudged) task.unjudged = true;
    tasks.push(task);
  }
  for (const t of intentTasks) {
    const first = seen.get(t.id);
    if (first !== undefined) problems.push(new ConfigError(`intent case "${t.id}" has the id of task ${first + 1} (line ${loaded.lineOf(['tasks', first])}); ids must differ`, at(['intents', 'cases']), 'intents.cases'));
    else tasks.push(t);
  }

  if (problems.length === 1) throw problems[0]!;
  if (problems.length > 1) throw new ConfigErrors(problems);
  return {
    path,
    dir,
    skillId: head.skill_id,
    description: head.description,
    grid: head.grid,
    tasks,
    contentHash: withFixtures(hash, dir, fixtures),
    ...(intents ? { intents } : {}),
  };
}

/**
 * A suite's content hash, from the hash of its bytes (and intents) and its fixture files by their paths
 * from the suite's folder, in the order its judges name them. The checked copy (suite-copy.ts) hashes the
 * files now on disk with it, to know its tasks are still the suite's.
 */
export function withFixtures(hash: Hash, dir: string, fixtures: readonly string[]): string {
  for (const rel of fixtures) hash.update(`\0${rel}\0`).update(readFileSync(join(dir, rel)));
  return `sha256:${hash.digest('hex')}`;
}

/** Validates what a judge points at and returns the fixture files it depends on. */
function checkJudge(j: JudgeSpec, dir: string, intents: SuiteIntents | undefined, fail: (msg: string, key: string) => void): string[] {
  switch (j.type) {
    case 'tool_call':
      if (!intents) fail('a tool_call judge needs the suite\'s "intents:" (cases and catalogue)', 'type');
      else if (!intents.cases.has(j.case_id)) fail(`no intent case "${j.case_id}" in the suite's intent cases`, 'case_id');
      return [];
    case 'regex':
      try {
        new RegExp(j.pattern, j.flags);
      } catch (err) {
        fail(`invalid regular expression: ${(err as Error).message}`, 'pattern');
      }
      return [];
    case 'pytest': {
      const f = fixtureInside(dir, pytestFileInSuite(dir, j.test_file), (m) => fail(m.replace(/\)$/, ', and in its fixtures/)'), 'test_file'));
      return f ? [f] : [];
    }
    case 'json': {
      if (typeof j.schema !== 'string') return [];
      const f = fixtureInside(dir, j.schema, (m) => fail(m, 'schema'));
      if (f) {
        try {
          JSON.parse(readFileSync(f, 'utf8'));
        } catch (err) {
          fail(`schema file is not valid JSON: ${(err as Error).message}`, 'schema');
        }
      }
      return f ? [f] : [];
    }
    case 'script': {
      const argv0 = Array.isArray(j.command) ? j.command[0]! : j.command.trim().split(/\s+/)[0]!;
      // A program named by a relative path lives beside the suite and is part of its content.
      if (!argv0.includes('/')) return [];
      const f = fixtureInside(dir, argv0, (m) => fail(m, 'command'));
      return f ? [f] : [];
    }
    case 'llm-rubric':
    case 'llm_rubric': {
      if (!j.rubric && !j.spec) fail('an llm-rubric judge needs a "rubric" (or a judge "spec" file)', 'rubric');
      if (j.rubric && j.spec) fail('give either "rubric" or "spec", not both', 'spec');
      if (!j.spec) return [];
      // The spec is part of what the judge does: its edits must change the suite's content hash.
      const f = fixtureInside(dir, j.spec, (m) => fail(m, 'spec'));
      return f ? [f] : [];
    }
    default:
      return [];
  }
}
