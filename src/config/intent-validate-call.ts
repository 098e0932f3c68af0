// Compiles capability parameter schemas with Ajv and checks a planned call against them. This is the
// guard seed 003 asks for: "schema validation must stop these, not the model". A call to a capability
// that is not in the catalogue, or with arguments its schema rejects, is a hallucination: counted and
// never executed. Ajv runs with strict off because real tool schemas carry annotations (`examples`,
// `x-…`) strict mode rejects; the common string formats are checked by the small set below.
import type { Ajv, AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import { ajv2019Lib, ajv2020Lib, ajvLib } from '../core/lazy.js';
import type { PlannedCall } from './intent-types.js';

const FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  time: /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/i,
  'date-time': /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

function newAjv(draft: string): Ajv {
  const options = { allErrors: true, strict: false, logger: false } as const;
  const ajv = draft.includes('2020-12') ? new (ajv2020Lib().Ajv2020)(options) : draft.includes('2019-09') ? new (ajv2019Lib().Ajv2019)(options) : new (ajvLib().Ajv)(options);
  for (const [name, re] of Object.entries(FORMATS)) ajv.addFormat(name, re);
  return ajv;
}

/** Compiles one parameters schema in its own Ajv instance (two capabilities may share an `$id`). Throws on an invalid schema. */
export function compileParameters(schema: Record<string, unknown>): ValidateFunction {
  const draft = typeof schema.$schema === 'string' ? schema.$schema : '';
  return newAjv(draft).compile(schema as AnySchema);
}

export interface CallCheck {
  capability: string;
  /** The capability exists in the catalogue. */
  known: boolean;
  /** Known, and the arguments pass its schema: the call a runtime would execute. */
  valid: boolean;
  /** Why it would be stopped; empty when valid. */
  errors: string[];
}

export function describeAjvErrors(errors: ErrorObject[] | null | undefined, max = 5): string[] {
  const list = (errors ?? []).map((e) => {
    const where = e.instancePath ? e.instancePath.replace(/^\//, '').replace(/\//g, '.') : '(arguments)';
    const extra = e.keyword === 'additionalProperties' ? ` "${String((e.params as { additionalProperty?: string }).additionalProperty)}"` : '';
    const allowed = e.keyword === 'enum' ? ` (${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')})` : '';
    return `${where} ${e.message ?? e.keyword}${extra}${allowed}`;
  });
  return list.length > max ? [...list.slice(0, max), `… ${list.length - max} more`] : list;
}

/** Checks one planned call; `validators` maps capability id → compiled schema. */
export function checkCall(call: PlannedCall, validators: ReadonlyMap<string, ValidateFunction>): CallCheck {
  const validate = validators.get(call.capability);
  if (!validate) return { capability: call.capability, known: false, valid: false, errors: [`"${call.capability}" is not in the catalogue`] };
  if (call.paramsError) return { capability: call.capability, known: true, valid: false, errors: [call.paramsError] };
  const p = call.params;
  if (p === null || typeof p !== 'object' || Array.isArray(p)) {
    return { capability: call.capability, known: true, valid: false, errors: ['arguments must be a JSON object'] };
  }
  if (validate(p)) return { capability: call.capability, known: true, valid: true, errors: [] };
  return { capability: call.capability, known: true, valid: false, errors: describeAjvErrors(validate.errors) };
}
