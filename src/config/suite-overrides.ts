// Categories, negative controls and splits for a suite given in pipeline.yaml (`suites: {<path>: …}`),
// so a suite written in another tool's format — skill-creator's evals.json, a trigger set — gets them
// without editing the author's file. An entry names a task by whetstone's id (`eval-3`) or by the
// author's own id (`3`); an id that names no task is refused at its pipeline.yaml line. pipeline.yaml's
// value wins over the suite's optional key. The overrides join the suite's content hash: they change
// what a baseline reports (categories, negatives), so a cached baseline from before them is not reused.
import { createHash } from 'node:crypto';

import { resolve } from 'node:path';

import { canonicalJson } from '../core/hash.js';
import { ConfigError, ConfigErrors } from '../core/errors.js';
import { slugify } from './eval-ids.js';
import { SAFE_ID, type Suite, type Task } from './suite-schema.js';
import { loadSuite, type LoadSuiteOptions } from './suite.js';
import type { OverrideRef, SuiteOverrides } from './suite-overrides-schema.js';

export { resolveSuiteOverrides, suiteOverridesSchema, type OverrideRef, type SuiteOverrides, type SuiteOverridesInput } from './suite-overrides-schema.js';

/** loadSuite, then pipeline.yaml's overrides for that suite (if any). */
export function loadSuiteWith(cfg: { suiteOverrides?: SuiteOverrides[] }, file: string, opts: LoadSuiteOptions = {}): Suite {
  return applySuiteOverrides(loadSuite(file, opts), cfg.suiteOverrides ?? []);
}

export function applySuiteOverrides(suite: Suite, all: SuiteOverrides[]): Suite {
  const o = all.find((x) => x.suite === resolve(suite.path));
  if (!o) return suite;
  const problems: ConfigError[] = [];
  const find = (r: OverrideRef): Task | undefined => {
    const t = suite.tasks.find((x) => x.id === String(r.ref)) ?? suite.tasks.find((x) => x.origin?.id !== undefined && String(x.origin.id) === String(r.ref));
    if (!t) {
      const some = suite.tasks.slice(0, 5).map((x) => (x.origin?.id !== undefined ? `${x.id} (${JSON.stringify(x.origin.id)})` : x.id));
      problems.push(new ConfigError(`no task ${JSON.stringify(r.ref)} in ${suite.path} (its tasks: ${some.join(', ')}${suite.tasks.length > 5 ? ', …' : ''})`, r.where, r.field));
    }
    return t;
  };
  const category = new Map<string, string>();
  for (const c of o.categories) {
    const t = find(c);
    if (t) category.set(t.id, SAFE_ID.test(c.category) ? c.category : slugify(c.category) || 'uncategorized');
  }
  const negative = new Set(o.negativeControls.flatMap((r) => find(r)?.id ?? []));
  const split = new Map<string, 'train' | 'holdout'>();
  for (const [refs, s] of [[o.heldOut, 'holdout'], [o.train, 'train']] as const) {
    for (const r of refs) {
      const t = find(r);
      if (!t) continue;
      if (split.has(t.id) && split.get(t.id) !== s) problems.push(new ConfigError(`task ${t.id} is listed in both held_out and train`, r.where, r.field));
      split.set(t.id, s);
    }
  }
  if (problems.length === 1) throw problems[0]!;
  if (problems.length > 1) throw new ConfigErrors(problems);
  const tasks = suite.tasks.map((t) => ({
    ...t,
    ...(category.has(t.id) ? { category: category.get(t.id)! } : {}),
    ...(negative.has(t.id) ? { negative: true } : {}),
    ...(split.has(t.id) ? { split: split.get(t.id)! } : {}),
  }));
  const applied = { categories: [...category].sort(), negative: [...negative].sort(), split: [...split].sort() };
  const contentHash = `sha256:${createHash('sha256').update(suite.contentHash).update('\0overrides\0').update(canonicalJson(applied)).digest('hex')}`;
  return { ...suite, tasks, contentHash };
}
