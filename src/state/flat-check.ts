// A quick check for the rows of a long artifact array (an evaluation's task results), derived from the
// row's own zod schema. Why: in a fresh process the schema's parse of 10,000 rows cost ≈ 25 ms before V8
// had warmed it up — most of what writing the artifact of a cached re-run cost beyond the bytes.
//
// It is only ever a shortcut, never a second opinion: it understands flat objects of strings, booleans,
// finite numbers (optionally safe integers) and string enums, each perhaps optional, and answers either the
// schema's very output (the known keys in the schema's order, unknown ones dropped) or "ask the schema".
// Anything it does not understand — another field type, a check, a catch-all, a key present but undefined —
// goes to the schema, which then accepts or refuses with its own message. An optional field of a type it
// does not read (a cached tally's nested intent metrics) sends only the rows that have it to the schema; a
// required one, or an object-wide check, leaves the schema with no quick check at all. `test/unit/flat-check.test.ts` holds it to zod's answers.
import type { z } from 'zod';

/** The schema's output for `raw`, or undefined: the schema must decide. */
export type FlatCheck = (raw: unknown) => Record<string, unknown> | undefined;

type Def = { type: string; checks?: { _zod: { def: { check?: string; format?: string } } }[]; coerce?: boolean; entries?: Record<string, unknown>; innerType?: z.ZodType; shape?: Record<string, z.ZodType>; catchall?: unknown };

const defOf = (s: z.ZodType) => s._zod.def as unknown as Def;

function fieldCheck(def: Def): ((v: unknown) => boolean) | undefined {
  if (def.coerce) return undefined;
  const checks = def.checks ?? [];
  switch (def.type) {
    case 'string':
      return checks.length ? undefined : (v) => typeof v === 'string';
    case 'boolean':
      return checks.length ? undefined : (v) => typeof v === 'boolean';
    case 'number': {
      if (checks.length === 0) return (v) => typeof v === 'number' && Number.isFinite(v);
      const only = checks.length === 1 ? checks[0]!._zod.def : undefined;
      return only?.check === 'number_format' && only.format === 'safeint' ? (v) => Number.isSafeInteger(v) : undefined;
    }
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      if (checks.length || !values.every((v) => typeof v === 'string')) return undefined;
      const allowed = new Set(values);
      return (v) => typeof v === 'string' && allowed.has(v);
    }
    default:
      return undefined;
  }
}

function build(schema: z.ZodType): FlatCheck | undefined {
  const def = defOf(schema);
  if (def.type !== 'object' || !def.shape || def.catchall !== undefined || (def.checks?.length ?? 0) > 0) return undefined;
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
