// A quick check for rows read or written by the thousand — an evaluation's task results, a cached
// baseline's tallies, a suite's tasks — derived from the row's own zod schema. Why: in a fresh process the
// schema's parse of 10,000 rows cost ≈ 25 ms before V8 had warmed it up — most of what writing the artifact
// of a cached re-run cost beyond the bytes; and validating a 1,000-task suite's tasks ≈ 18 ms of a
// command's start.
//
// It is only ever a shortcut, never a second opinion: it understands flat objects of strings, booleans,
// finite numbers, string enums and unknowns, each perhaps optional, strict or not, with the checks that
// only test a value (lengths, a regex, bounds, an integer format) — each run by zod's own check code —
// and answers either the schema's very output (the known keys in the schema's order, unknown ones
// dropped; a strict object's unknown key goes to the schema) or "ask the schema". Anything it does not
// understand — another field type, a check that could change a value, a catch-all, a key present but
// undefined — goes to the schema, which then accepts or refuses with its own message. An optional field
// of a type it does not read (a cached tally's nested intent metrics) sends only the rows that have it to
// the schema; a required one, or an object-wide check, leaves the schema with no quick check at all.
// `test/unit/flat-check.test.ts` holds it to zod's answers.
import type { z } from 'zod';

/** The schema's output for `raw`, or undefined: the schema must decide. */
export type FlatCheck = (raw: unknown) => Record<string, unknown> | undefined;

/** A check as zod keeps it: its def, and the function zod runs it with (issues pushed onto the payload). */
type Check = { _zod: { def: { check?: string; format?: string; when?: (p: Payload) => boolean }; check: (p: Payload) => unknown } };
type Payload = { value: unknown; issues: unknown[] };
type Def = { type: string; checks?: Check[]; coerce?: boolean; entries?: Record<string, unknown>; innerType?: z.ZodType; shape?: Record<string, z.ZodType>; catchall?: z.ZodType };

const defOf = (s: z.ZodType) => s._zod.def as unknown as Def;

/** Checks that only test a value, never change it: run here by zod's own code, in zod's order. */
const TESTS_ONLY = new Set(['min_length', 'max_length', 'length_equals', 'greater_than', 'less_than', 'number_format']);

/** Whether `v` passes every check as zod would run it (`when` first, as its runChecks does), or undefined: a check this does not take. */
function checksOf(checks: Check[]): ((v: unknown) => boolean) | undefined {
  if (!checks.every((c) => TESTS_ONLY.has(c._zod.def.check ?? '') || (c._zod.def.check === 'string_format' && c._zod.def.format === 'regex'))) return undefined;
  return (v) =>
    checks.every((c) => {
      const payload: Payload = { value: v, issues: [] };
      if (c._zod.def.when && !c._zod.def.when(payload)) return true;
      c._zod.check(payload);
      return payload.issues.length === 0;
    });
}

function fieldCheck(def: Def): ((v: unknown) => boolean) | undefined {
  if (def.coerce) return undefined;
  const passes = checksOf(def.checks ?? []);
  if (!passes) return undefined;
  const plain = (def.checks?.length ?? 0) === 0;
  switch (def.type) {
    case 'string':
      return plain ? (v) => typeof v === 'string' : (v) => typeof v === 'string' && passes(v);
    case 'boolean':
      return plain ? (v) => typeof v === 'boolean' : undefined;
    case 'number':
      return plain ? (v) => typeof v === 'number' && Number.isFinite(v) : (v) => typeof v === 'number' && Number.isFinite(v) && passes(v);
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      if (!plain || !values.every((v) => typeof v === 'string')) return undefined;
      const allowed = new Set(values);
      return (v) => typeof v === 'string' && allowed.has(v);
    }
    case 'unknown':
      return plain ? () => true : undefined;
    default:
      return undefined;
  }
}

function build(schema: z.ZodType): FlatCheck | undefined {
  const def = defOf(schema);
  // A strict object (catch-all `never`) refuses unknown keys: a row that has one goes to the schema.
  const strict = def.catchall !== undefined && defOf(def.catchall).type === 'never';
  if (def.type !== 'object' || !def.shape || (def.catchall !== undefined && !strict) || (def.checks?.length ?? 0) > 0) return undefined;
  const known = new Set(Object.keys(def.shape));
  // `ok` undefined: an optional field this check cannot read, so a row that has it goes to the schema.
  const fields: { key: string; optional: boolean; ok: ((v: unknown) => boolean) | undefined }[] = [];
  for (const [key, field] of Object.entries(def.shape)) {
    let d = defOf(field);
    const optional = d.type === 'optional';
    if (optional) {
      if (!d.innerType) return undefined;
      d = defOf(d.innerType);
    }
    const ok = fieldCheck(d);
    if (!ok && !optional) return undefined;
    fields.push({ key, optional, ok });
  }
  return (raw) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || Object.getPrototypeOf(raw) !== Object.prototype) return undefined;
    const r = raw as Record<string, unknown>;
    if (strict) for (const k of Object.keys(r)) if (!known.has(k)) return undefined;
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const v = r[f.key];
      if (v === undefined) {
        if (!f.optional || Object.prototype.hasOwnProperty.call(r, f.key)) return undefined;
        continue;
      }
      if (!f.ok || !Object.prototype.hasOwnProperty.call(r, f.key) || !f.ok(v)) return undefined;
      out[f.key] = v;
    }
    return out;
  };
}

const built = new WeakMap<z.ZodType, FlatCheck | null>();

/** The quick check of `schema`, built once; undefined when the schema is not one it understands. */
export function flatCheckOf(schema: z.ZodType): FlatCheck | undefined {
  let c = built.get(schema);
  if (c === undefined) built.set(schema, (c = build(schema) ?? null));
  return c ?? undefined;
}
