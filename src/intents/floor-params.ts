// How the floor planner fills a capability's arguments. For each property of the parameters schema, in
// declaration order, the first rule that yields a value wins:
//
//   from the words   1. an `enum` value written in the text (the earliest one)
//                    2. a `pattern` property: the first word matching the pattern
//                    3. an `integer`/`number` property: the first standalone number (`#42`, `42`)
//                    4. a list in the context named after the property (`services` for `service`,
//                       `repos` for `repo`): the item the text mentions
//                    5. a text-like property (title, summary, text, message, query, …): quoted text,
//                       else the text after the first colon
//   from the context 6. a scalar `context.<property>` (e.g. `context.project`)
//                    7. the same key in the previous call (`context.previous_call.params`, or the
//                       last of `context.previous_calls`)
//                    8. `system`-like enums: the one connected system (`context.connected_systems`)
//                       that the enum allows, when exactly one does
//   from the schema  9. the property's `default`
//
// A value already used for one property is not reused for another. Whatever stays missing and is
// `required` makes the planner ask (a required value is never guessed).
import { phraseIndex, rawWords } from './floor-text.js';

type Schema = Record<string, unknown>;
const TEXT_LIKE = new Set(['title', 'summary', 'text', 'message', 'body', 'description', 'query', 'comment', 'subject', 'content', 'note', 'reason']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function scalar(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function pluralKeys(p: string): string[] {
  return [`${p}s`, `${p}es`, p.endsWith('y') ? `${p.slice(0, -1)}ies` : ''].filter(Boolean);
}

export function previousParams(context: Record<string, unknown>): Record<string, unknown> {
  const prev = context.previous_call;
  if (isRecord(prev) && isRecord(prev.params)) return prev.params;
  const list = context.previous_calls;
  if (Array.isArray(list)) {
    const last = list[list.length - 1];
    if (isRecord(last) && isRecord(last.params)) return last.params;
  }
  return {};
}

function fromWords(name: string, prop: Schema, text: string, context: Record<string, unknown>, used: Set<string>): unknown {
  const free = (v: string) => !used.has(v.toLowerCase());
  if (Array.isArray(prop.enum)) {
    const hits = prop.enum
      .filter((v): v is string => typeof v === 'string' && free(v))
      .map((v) => ({ v, i: Math.min(...[v, v.replace(/_/g, ' ')].map((f) => phraseIndex(text, f)).map((i) => (i < 0 ? Infinity : i))) }))
      .filter((h) => h.i !== Infinity)
      .sort((a, b) => a.i - b.i);
    if (hits[0]) return hits[0].v;
  }
  if (typeof prop.pattern === 'string') {
    let re: RegExp;
    try {
      re = new RegExp(prop.pattern, 'u');
    } catch {
      return undefined;
    }
    const word = rawWords(text).find((w) => re.test(w) && free(w));
    if (word !== undefined) return word;
  }
  if (prop.type === 'integer' || prop.type === 'number') {
    for (const m of text.matchAll(/(?<![\p{L}\p{N}_.\-])#?(\d+(?:\.\d+)?)(?![\p{L}\p{N}_\-]|\.\d)/gu)) {
      const raw = m[1]!;
      if (!free(raw) || (prop.type === 'integer' && raw.includes('.'))) continue;
      return Number(raw);
    }
  }
  for (const key of pluralKeys(name)) {
    const list = context[key];
    if (!Array.isArray(list)) continue;
    const hit = list
      .filter((v): v is string => typeof v === 'string' && free(v))
      .map((v) => ({ v, i: phraseIndex(text, v) }))
      .filter((h) => h.i >= 0)
      .sort((a, b) => a.i - b.i)[0];
    if (hit) return hit.v;
  }
  if (TEXT_LIKE.has(name) && (prop.type === 'string' || prop.type === undefined)) {
    const quoted = /["“«「『]([^"”»」』]+)["”»」』]/u.exec(text);
    if (quoted?.[1] && free(quoted[1])) return quoted[1].trim();
    const colon = /[:：]\s*(.+)$/su.exec(text);
    if (colon?.[1] && colon[1].trim() !== '' && free(colon[1].trim())) return colon[1].trim();
  }
  return undefined;
}

function fromContext(name: string, prop: Schema, context: Record<string, unknown>): unknown {
  const direct = context[name];
  if (scalar(direct)) return direct;
  const prev = previousParams(context)[name];
  if (prev !== undefined) return prev;
  if (Array.isArray(prop.enum)) {
    const connected = context.connected_systems ?? context.systems;
    if (Array.isArray(connected)) {
      const allowed = prop.enum.filter((v) => connected.some((c) => typeof c === 'string' && typeof v === 'string' && c.toLowerCase() === v.toLowerCase()));
      if (allowed.length === 1) return allowed[0];
    }
  }
  return undefined;
}

export interface FilledParams {
  params: Record<string, unknown>;
  missing: string[];
}

export function fillParams(schema: Schema, text: string, context: Record<string, unknown>): FilledParams {
  const props = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const params: Record<string, unknown> = {};
  const used = new Set<string>();
  for (const [name, raw] of Object.entries(props)) {
    const prop = isRecord(raw) ? raw : {};
    let value = fromWords(name, prop, text, context, used);
    if (value === undefined) value = fromContext(name, prop, context);
    if (value === undefined && 'default' in prop) value = prop.default;
    if (value === undefined) continue;
    params[name] = value;
    if (scalar(value)) used.add(String(value).toLowerCase());
  }
  return { params, missing: required.filter((r) => !(r in params)) };
}

