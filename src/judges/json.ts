// The json judge: the output must be JSON, and match a JSON Schema when one is given. Schemas are
// compiled once per distinct content (a suite runs the same schema on every task and every repeat),
// each in its own Ajv instance so two schemas sharing an `$id` cannot collide. The draft is chosen
// from `$schema` (2020-12, 2019-09, else Ajv's default draft-07). Ajv runs with strict off because
// real-world schemas carry annotations Ajv's strict mode rejects (`example`, unknown `format`s).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import { ajv2019Lib, ajv2020Lib, ajvLib, yamlLib } from '../core/lazy.js';
import type { JudgeSpec } from '../config/suite-schema.js';
import type { JudgeContext, JudgeResult } from './types.js';
import { isPlainObject, parseJson, wholeFencedBlock } from './json-text.js';
import { resolveInsideSuite } from '../config/suite-files.js';
import { errorResult, oneLine } from './result.js';

type JsonSpec = Extract<JudgeSpec, { type: 'json' }>;
type Compiled = { ok: true; validate: ValidateFunction } | { ok: false; message: string };

const MAX_ERRORS_SHOWN = 3;
const compiled = new Map<string, Compiled>();

function compileSchema(schema: Record<string, unknown>): Compiled {
  const key = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
  const hit = compiled.get(key);
  if (hit) return hit;
  const draft = typeof schema.$schema === 'string' ? schema.$schema : '';
  const options = { allErrors: true, strict: false, logger: false } as const;
  const ajv = draft.includes('2020-12') ? new (ajv2020Lib().Ajv2020)(options) : draft.includes('2019-09') ? new (ajv2019Lib().Ajv2019)(options) : new (ajvLib().Ajv)(options);
  let result: Compiled;
  try {
    result = { ok: true, validate: ajv.compile(schema as AnySchema) };
  } catch (err) {
    result = { ok: false, message: `invalid JSON Schema: ${err instanceof Error ? err.message : String(err)}` };
  }
  compiled.set(key, result);
  return result;
}

async function loadSchema(spec: JsonSpec, suiteDir: string): Promise<Record<string, unknown> | string | undefined> {
  if (spec.schema === undefined) return undefined;
  if (typeof spec.schema !== 'string') return spec.schema;
  const resolved = await resolveInsideSuite(suiteDir, spec.schema, 'JSON Schema');
  if (!resolved.ok) return resolved.message;
  let text: string;
  try {
    text = await readFile(resolved.path, 'utf8');
  } catch (err) {
    return `cannot read JSON Schema ${resolved.path}: ${err instanceof Error ? err.message : String(err)}`;
  }
  let value: unknown;
  try {
    value = /\.ya?ml$/i.test(resolved.path) ? yamlLib().parse(text) : JSON.parse(text);
  } catch (err) {
    return `JSON Schema ${spec.schema} does not parse: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (!isPlainObject(value)) return `JSON Schema ${spec.schema} must be an object`;
  return value;
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  const list = errors ?? [];
  const shown = list.slice(0, MAX_ERRORS_SHOWN).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
  const more = list.length > MAX_ERRORS_SHOWN ? ` (+${list.length - MAX_ERRORS_SHOWN} more)` : '';
  return `${shown.join('; ')}${more}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

export async function judgeJson(spec: JsonSpec, ctx: JudgeContext): Promise<JudgeResult> {
  // Schema problems are the suite's fault, so they are errors even when the output is not JSON.
  const schema = await loadSchema(spec, ctx.suiteDir);
  if (typeof schema === 'string') return errorResult('json', schema);
  const validator = schema === undefined ? undefined : compileSchema(schema);
  if (validator && !validator.ok) return errorResult('json', validator.message);

  const text = ctx.output.trim();
  if (text.length === 0) return { type: 'json', passed: false, score: 0, reason: 'output is empty, not JSON' };
  let parsed = parseJson(text);
  let via = '';
  if (!parsed.ok) {
    const body = wholeFencedBlock(text);
    const inner = body === undefined ? undefined : parseJson(body.trim());
    if (inner?.ok) {
      parsed = inner;
      via = ' (extracted from a fenced ```json block)';
    }
  }
  if (!parsed.ok) return { type: 'json', passed: false, score: 0, reason: oneLine(`not valid JSON: ${parsed.message}`) };

  if (validator?.ok) {
    if (!validator.validate(parsed.value)) {
      return {
        type: 'json',
        passed: false,
        score: 0,
        reason: oneLine(`valid JSON${via} but violates the schema: ${describeErrors(validator.validate.errors)}`),
      };
    }
    return { type: 'json', passed: true, score: 1, reason: `valid JSON ${kindOf(parsed.value)}${via}, matches the schema` };
  }
  return { type: 'json', passed: true, score: 1, reason: `valid JSON ${kindOf(parsed.value)}${via}` };
}
