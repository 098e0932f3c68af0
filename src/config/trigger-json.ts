// skill-creator's trigger eval sets read as trigger suites: each query is a task with `should_trigger`,
// judged only by whether the agent invoked the skill (claude with mode: installed reports it). The shapes
// seen in public skill repositories: a list of {query, should_trigger} (extra keys such as id, reason,
// note kept out of the way), {cases: [{prompt, expected_trigger}]}, and {trigger_evals: {should_trigger:
// [...], should_not_trigger: [...]}} whose entries are strings or objects with a query. A multi-skill
// router set, whose `should_trigger` names a skill (or is null), is refused: it measures which of several
// skills a router picks, which one installed skill cannot answer.
import { createHash } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { IdAllocator } from './eval-ids.js';
import { skillRootOf } from './evals-json.js';
import type { YamlSource } from './load-yaml.js';
import type { Suite, Task } from './suite-schema.js';

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const anyId = z.union([z.number(), nonEmpty]).optional();
// An optional `split` per query places it in train or held out; else loop.holdout_ratio decides.
const split = z.enum(['train', 'holdout']).optional();
const queryItem = z.looseObject({ id: anyId, query: nonEmpty, should_trigger: z.boolean({ error: 'expected true or false' }), split });
const caseItem = z.looseObject({ id: anyId, prompt: nonEmpty, expected_trigger: z.boolean({ error: 'expected true or false' }), split });
const listedItem = z.union([nonEmpty, z.looseObject({ id: anyId, query: nonEmpty, split })], { error: 'expected a query: a string, or an object with "query"' });

const shapes = {
  list: z.array(queryItem).min(1, 'lists no queries'),
  cases: z.looseObject({ cases: z.array(caseItem).min(1, 'lists no cases') }),
  split: z.looseObject({
    trigger_evals: z.looseObject({ should_trigger: z.array(listedItem).optional(), should_not_trigger: z.array(listedItem).optional() }),
  }),
};

export type TriggerShape = keyof typeof shapes;

interface Query {
  id?: string | number;
  query: string;
  should: boolean;
  split?: 'train' | 'holdout';
  /** Where the entry sits, for messages. */
  path: (string | number)[];
}

/** Which trigger shape `raw` is written in, if any (decided on keys alone; validation follows). */
export function triggerShapeOf(raw: unknown): TriggerShape | undefined {
  // Each shape needs its own keys, so a list of {query, expected} or a `trigger_evals` with neither side
  // is refused once as another shape (json-suite.ts) rather than with one schema line per entry.
  if (Array.isArray(raw)) return raw.some((x) => isObj(x) && 'query' in x && 'should_trigger' in x) ? 'list' : undefined;
  if (!isObj(raw)) return undefined;
  const sides = raw['trigger_evals'];
  if (isObj(sides) && ('should_trigger' in sides || 'should_not_trigger' in sides)) return 'split';
  const cases = raw['cases'];
  if (Array.isArray(cases) && cases.some((x) => isObj(x) && 'expected_trigger' in x)) return 'cases';
  return undefined;
}

export function triggerSuite(path: string, raw: unknown, src: YamlSource, shape: TriggerShape, timeoutMs: number): Suite {
  if (shape === 'list') refuseRouterSet(raw as unknown[], src);
  const queries = readQueries(raw, src, shape);
  if (queries.length === 0) throw new ConfigError('the trigger set lists no queries', src.at(['trigger_evals']));
  const ids = new IdAllocator('trigger');
  const tasks: Task[] = queries.map((q, index) => ({
    id: ids.take(q.id ?? index),
    prompt: q.query,
    judges: [],
    timeoutMs,
    category: q.should ? 'should-trigger' : 'should-not-trigger',
    negative: false,
    critical: false,
    shouldTrigger: q.should,
    ...(q.split ? { split: q.split } : {}),
    index,
    origin: { format: 'skill-creator-trigger', ...(q.id !== undefined ? { id: q.id } : {}) },
  }));
  const root = skillRootOf(path);
  return {
    path,
    dir: dirname(path),
    skillId: basename(root),
    tasks,
    contentHash: `sha256:${createHash('sha256').update(src.bytes).digest('hex')}`,
    format: 'skill-creator-trigger',
  };
}

function readQueries(raw: unknown, src: YamlSource, shape: TriggerShape): Query[] {
  switch (shape) {
    case 'list':
      return src.validate(shapes.list, raw).map((q, i) => ({ id: q.id, query: q.query, should: q.should_trigger, split: q.split, path: [i] }));
    case 'cases':
      return src.validate(shapes.cases, raw).cases.map((c, i) => ({ id: c.id, query: c.prompt, should: c.expected_trigger, split: c.split, path: ['cases', i] }));
    case 'split': {
      const t = src.validate(shapes.split, raw).trigger_evals;
      const side = (items: z.infer<typeof listedItem>[] | undefined, should: boolean, key: string): Query[] =>
        (items ?? []).map((x, i) => (typeof x === 'string' ? { query: x, should, path: ['trigger_evals', key, i] } : { id: x.id, query: x.query, should, split: x.split, path: ['trigger_evals', key, i] }));
      return [...side(t.should_trigger, true, 'should_trigger'), ...side(t.should_not_trigger, false, 'should_not_trigger')];
    }
  }
}

/** A router set names the skill that should answer (or null for none): refused with where and why. */
function refuseRouterSet(items: unknown[], src: YamlSource): void {
  const names = (v: unknown) => v === null || (typeof v === 'string' && SKILL_NAME.test(v) && !/^(true|false|yes|no)$/i.test(v));
  const i = items.findIndex((x) => isObj(x) && names(x['should_trigger']));
  if (i < 0) return;
  throw new ConfigError(
    'this is a multi-skill router set (should_trigger names a skill, or is null): whetstone measures one installed skill at a time; ' +
      'write one trigger set per skill with should_trigger true for the queries that skill must take and false for the rest',
    src.at([i, 'should_trigger']),
    `[${i}].should_trigger`,
  );
}

/** A skill name as router sets write it (`pdf`, `ms-office-suite:pdf`); other strings are plain mistakes. */
const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9:._-]*$/;

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
