// A `.json` task suite: skill-creator's evals.json or one of its trigger eval sets, read unchanged. The
// shape is decided from the top-level keys; a JSON file in neither shape (a `cases` or `test_cases` list
// of {input, expected_behavior}, a bare list of prompts) is refused at `file:line:col` with what was
// expected, never half-read. JSON is YAML, so the located parser of load-yaml.ts gives the positions.
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
  if (isObj(raw) && 'evals' in raw) return evalsJsonSuite(path, raw, src, timeoutMs);
  const trigger = triggerShapeOf(raw);
  if (trigger) return triggerSuite(path, raw, src, trigger, timeoutMs);
  const { found, at } = describe(raw);
  throw new ConfigError(`not a suite whetstone can read: ${EXPECTED_JSON_SHAPES}; found ${found}`, src.at(at));
}

/** What the file holds instead, and where to point: the list that looks like cases, else the top. */
function describe(raw: unknown): { found: string; at: (string | number)[] } {
  if (Array.isArray(raw)) return { found: `a list of ${kindOf(raw[0])}`, at: [] };
  if (!isObj(raw)) return { found: kindOf(raw), at: [] };
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
