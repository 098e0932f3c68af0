// promptfoo assertions mapped to whetstone judges, where the meaning is the same. promptfoo's string
// checks are case-sensitive unless their name starts with `i` (whetstone's `contains` is the other way
// round, so the flag is always written out); `not-` negates any type; `equals` compares exactly (no
// trimming). Anything else — JavaScript or Python assertions, similarity, model-graded variants other than
// llm-rubric, an assertion with a `transform` — has no faithful judge here and is reported, never guessed.
import type { JudgeSpec } from '../config/suite-schema.js';

export interface PromptfooAssertion {
  type?: unknown;
  value?: unknown;
  threshold?: unknown;
  transform?: unknown;
  [key: string]: unknown;
}

export type Mapped = { judge: JudgeSpec } | { unsupported: string };

/** The types this importer maps (the `not-` forms of the string checks included). */
export const SUPPORTED_TYPES = [
  'contains', 'icontains', 'contains-all', 'icontains-all', 'contains-any', 'icontains-any', 'starts-with',
  'regex', 'equals', 'is-json', 'llm-rubric',
  'not-contains', 'not-icontains', 'not-contains-any', 'not-icontains-any', 'not-regex', 'not-starts-with',
] as const;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function strings(v: unknown): string[] | undefined {
  if (typeof v === 'string' && v.length > 0) return [v];
  if (typeof v === 'number') return [String(v)];
  if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' || typeof x === 'number')) return v.map(String);
  return undefined;
}

export function mapAssertion(a: PromptfooAssertion, render: (s: string) => string): Mapped {
  const type = typeof a.type === 'string' ? a.type : undefined;
  if (!type) return { unsupported: 'an assertion without a "type"' };
  if (a.transform !== undefined) return { unsupported: `${type} with a "transform" (the output would be rewritten before judging)` };
  const negate = type.startsWith('not-');
  const base = negate ? type.slice(4) : type;
  const values = strings(a.value)?.map(render);
  const need = (what: string): Mapped => ({ unsupported: `${type} without ${what}` });
  switch (base) {
    case 'contains':
    case 'icontains':
    case 'contains-all':
    case 'icontains-all': {
      if (!values) return need('a string "value"');
      if (negate && base.endsWith('-all')) return { unsupported: `${type} (true when any one is missing) has no whetstone judge` };
      return { judge: { type: negate ? 'not_contains' : 'contains', expected: values, case_sensitive: !base.startsWith('i') } };
    }
    case 'contains-any':
    case 'icontains-any': {
      if (!values) return need('a list of strings in "value"');
      const flags = base.startsWith('i') ? 'i' : undefined;
      if (negate) return { judge: { type: 'not_contains', expected: values, case_sensitive: !flags } };
      return { judge: { type: 'regex', pattern: values.map(escapeRe).join('|'), ...(flags ? { flags } : {}) } };
    }
    case 'starts-with':
      if (!values || values.length !== 1) return need('one string "value"');
      return { judge: { type: 'regex', pattern: `^${escapeRe(values[0]!)}`, ...(negate ? { negate: true } : {}) } };
    case 'regex': {
      if (!values || values.length !== 1) return need('one pattern in "value"');
      try {
        new RegExp(values[0]!);
      } catch (err) {
        return { unsupported: `${type} whose pattern does not compile here: ${(err as Error).message}` };
      }
      return { judge: { type: 'regex', pattern: values[0]!, ...(negate ? { negate: true } : {}) } };
    }
    case 'equals':
      if (negate) return { unsupported: 'not-equals has no whetstone judge' };
      if (!values || values.length !== 1) return need('one string "value"');
      return { judge: { type: 'equals', expected: values[0]!, case_sensitive: true, trim: false } };
    case 'is-json': {
      if (negate) return { unsupported: 'not-is-json has no whetstone judge' };
      if (a.value === undefined) return { judge: { type: 'json' } };
      if (typeof a.value === 'object' && a.value !== null && !Array.isArray(a.value)) return { judge: { type: 'json', schema: a.value as Record<string, unknown> } };
      return { unsupported: 'is-json with a schema that is not an inline object (file:// schemas are not read)' };
    }
    case 'llm-rubric': {
      if (negate) return { unsupported: 'not-llm-rubric has no whetstone judge' };
      if (!values || values.length !== 1) return need('a rubric in "value"');
      const t = typeof a.threshold === 'number' && a.threshold >= 0 && a.threshold <= 1 ? a.threshold : undefined;
      return { judge: { type: 'llm-rubric', rubric: values[0]!, ...(t !== undefined ? { pass_threshold: t } : {}) } };
    }
    default:
      return { unsupported: `assertion type "${type}" has no whetstone judge` };
  }
}
