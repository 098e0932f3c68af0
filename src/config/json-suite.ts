// A `.json` task suite: skill-creator's evals.json or one of its trigger eval sets, read unchanged. The
// shape is decided from the keys before any schema runs: an `evals` list counts as skill-creator's only
// when an entry has one of its keys (`prompt`, `expectations`…), else `{input, expected_behavior}` entries
// would get one raw "expected string, received undefined" per entry (issue 28); a trigger set only with
// its own keys. A JSON file in
// none of these shapes (an `evals`, `cases` or `test_cases` list of {input, expected_behavior}, a bare list
// of prompts) is refused once at `file:line:col` with what was expected and what was found, never
// half-read. JSON is YAML, so the located parser of load-yaml.ts gives the positions.
import { resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { evalsJsonSuite } from './evals-json.js';
import { readYaml } from './load-yaml.js';
import type { Suite } from './suite-schema.js';
import { triggerShapeOf, triggerSuite } from './trigger-json.js';

export const EXPECTED_JSON_SHAPES =
  'expected skill-creator\'s evals.json ({"skill_name", "evals": [{"id", "prompt", "expected_output", "files", "expectations"}]}) ' +
  'or a trigger eval set ([{"query", "should_trigger"}], {"cases": [{"prompt", "expected_trigger"}]} or {"trigger_evals": {"should_trigger", "should_not_trigger"}})';

export function isJsonSuitePath(file: string): boolean {
  return /\.json$/i.test(file);
}

export function loadJsonSuite(file: string, timeoutMs: number): Suite {
  const path = resolve(file);
  const { raw, src } = readYaml(path, 'task suite');
  if (isObj(raw) && isSkillCreatorEvals(raw['evals'])) return evalsJsonSuite(path, raw, src, timeoutMs);
  const trigger = triggerShapeOf(raw);
  if (trigger) return triggerSuite(path, raw, src, trigger, timeoutMs);
  const { found, at } = describe(raw);
  throw new ConfigError(`not a suite whetstone can read: ${EXPECTED_JSON_SHAPES}; found ${found}`, src.at(at));
}

/**
 * skill-creator's `evals`: a list with an entry holding one of its keys — then a missing prompt is that
 * entry's mistake, reported at it. An empty list is skill-creator's too, refused as "lists no evals".
 */
function isSkillCreatorEvals(evals: unknown): boolean {
  return Array.isArray(evals) && (evals.length === 0 || evals.some((e) => isObj(e) && SKILL_CREATOR_KEYS.some((k) => k in e)));
}
const SKILL_CREATOR_KEYS = ['prompt', 'expected_output', 'expectations', 'assertions', 'files'];

/** What the file holds instead, and where to point: the list that looks like cases, else the top. */
function describe(raw: unknown): { found: string; at: (string | number)[] } {
  if (Array.isArray(raw)) return { found: `a list of ${kindOf(raw[0])}`, at: [] };
  if (!isObj(raw)) return { found: kindOf(raw), at: [] };
  const evals = raw['evals'];
  if (evals !== undefined && !Array.isArray(evals)) return { found: `"evals" holding ${isObj(evals) ? `an object ${kindOf(evals)}` : kindOf(evals)}`, at: ['evals'] };
  if (isObj(raw['trigger_evals'])) return { found: `"trigger_evals" holding ${kindOf(raw['trigger_evals'])}`, at: ['trigger_evals'] };
  const listKey = Object.keys(raw).find((k) => Array.isArray(raw[k]));
  if (listKey !== undefined) {
    const first = (raw[listKey] as unknown[])[0];
    return { found: `a "${listKey}" list of ${kindOf(first)}`, at: [listKey] };
  }
  const keys = Object.keys(raw);
  return { found: keys.length ? `an object with ${keys.slice(0, 6).map((k) => `"${k}"`).join(', ')}` : 'an empty object', at: [] };
}

function kindOf(x: unknown): string {
  if (isObj(x)) {
    const keys = Object.keys(x);
    return keys.length ? `{${keys.slice(0, 6).map((k) => `"${k}"`).join(', ')}}` : 'empty objects';
  }
  if (Array.isArray(x)) return 'lists';
  return x === null ? 'null' : x === undefined ? 'nothing' : typeof x === 'string' ? 'strings' : `${typeof x} values`;
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
