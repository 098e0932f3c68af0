// How an expected parameter value is compared with what the engine sent. Only the keys listed in
// expect.params are checked. Seed 003's own harness compared placeholders literally, so a case saying
// "<the plan from the last turn>" could never pass; here a placeholder is never compared literally.
//
//   plain string      equal after NFKC, trimming and lower-casing both sides ("Staging " = "staging")
//   number, boolean   strictly equal, same JSON type (3 = 3.0, but 3 ≠ "3": the schema governs types)
//   null              the engine sent null
//   array             same length, element by element in order, each by these rules
//   object            same key set, value by value, each by these rules
//   "<…>" "{{…}}" "${…}"   placeholder (the whole string): the key is present with a non-empty value
//   {"$any": true}    the same, written explicitly
//   {"$pattern": "re", "$flags": "i"}   a string (numbers are turned into text) the regex finds
//   {"$oneOf": [a, b]}  matches any of the alternatives, each by these rules
//   {"$absent": true} the key must not be sent
//   {"$literal": v}   v compared by the plain rules above, never read as a placeholder or matcher
// "Non-empty" means not null, not "" after trimming, not [] and not {}.

export interface ParamCheck {
  key: string;
  expected: unknown;
  actual: unknown;
  present: boolean;
  ok: boolean;
  /** Why it failed, in words. */
  why?: string;
}

const MATCHER_KEYS = new Set(['$any', '$pattern', '$flags', '$oneOf', '$absent', '$literal']);
const PLACEHOLDER = /^\s*(?:<[^<>]+>|\{\{[\s\S]+\}\}|\$\{[\s\S]+\})\s*$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function isPlaceholder(v: unknown): boolean {
  return typeof v === 'string' && PLACEHOLDER.test(v);
}

function isMatcher(v: unknown): v is Record<string, unknown> {
  return isRecord(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => k.startsWith('$'));
}

/** Problems in an expected value (unknown `$` keys, bad regexes), for the loader; [] when fine. */
export function matcherProblems(v: unknown, path = ''): string[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => matcherProblems(x, `${path}[${i}]`));
  if (!isRecord(v)) return [];
  const keys = Object.keys(v);
  const dollar = keys.filter((k) => k.startsWith('$'));
  if (dollar.length === 0) return keys.flatMap((k) => matcherProblems(v[k], `${path}.${k}`));
  const at = path || '(value)';
  if (dollar.length !== keys.length) return [`${at}: mixes matcher keys (${dollar.join(', ')}) with plain keys; use {"$literal": …} for a literal object`];
  const unknown = keys.filter((k) => !MATCHER_KEYS.has(k));
  if (unknown.length > 0) return [`${at}: unknown matcher ${unknown.join(', ')}; known: $any, $pattern (+$flags), $oneOf, $absent, $literal`];
  if ('$literal' in v) return keys.length === 1 ? [] : [`${at}: $literal stands alone`];
  if ('$pattern' in v) {
    if (typeof v.$pattern !== 'string') return [`${at}: $pattern must be a string`];
    try {
      new RegExp(v.$pattern, typeof v.$flags === 'string' ? v.$flags : 'u');
    } catch (err) {
      return [`${at}: $pattern is not a valid regular expression: ${(err as Error).message}`];
    }
    return [];
  }
  if ('$oneOf' in v) {
    if (!Array.isArray(v.$oneOf) || v.$oneOf.length === 0) return [`${at}: $oneOf must be a non-empty list`];
    return v.$oneOf.flatMap((x, i) => matcherProblems(x, `${at}.$oneOf[${i}]`));
  }
  if ('$any' in v && v.$any !== true) return [`${at}: write {"$any": true}`];
  if ('$absent' in v && v.$absent !== true) return [`${at}: write {"$absent": true}`];
  if ('$flags' in v) return [`${at}: $flags goes with $pattern`];
  return [];
}

function nonEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (Array.isArray(v)) return v.length > 0;
  if (isRecord(v)) return Object.keys(v).length > 0;
  return true;
}

const normText = (s: string) => s.normalize('NFKC').trim().toLowerCase();

/** Whether `actual` satisfies `expected`; `why` says what differed. */
export function matchValue(expected: unknown, actual: unknown): { ok: boolean; why?: string } {
  if (isPlaceholder(expected) || (isMatcher(expected) && expected.$any === true)) {
    return nonEmpty(actual) ? { ok: true } : { ok: false, why: 'placeholder needs a non-empty value' };
  }
  if (isMatcher(expected)) {
    if ('$literal' in expected) return plainEqual(expected.$literal, actual);
    if (typeof expected.$pattern === 'string') {
      const text = typeof actual === 'string' ? actual : typeof actual === 'number' ? String(actual) : undefined;
      if (text === undefined) return { ok: false, why: `expected text matching /${expected.$pattern}/` };
      const re = new RegExp(expected.$pattern, typeof expected.$flags === 'string' ? expected.$flags : 'u');
      return re.test(text) ? { ok: true } : { ok: false, why: `does not match /${expected.$pattern}/` };
    }
    if (Array.isArray(expected.$oneOf)) {
      return expected.$oneOf.some((alt) => matchValue(alt, actual).ok) ? { ok: true } : { ok: false, why: 'matches none of $oneOf' };
    }
    if (expected.$absent === true) return actual === undefined ? { ok: true } : { ok: false, why: 'should not be sent' };
  }
  return plainEqual(expected, actual);
}

function plainEqual(expected: unknown, actual: unknown): { ok: boolean; why?: string } {
  if (typeof expected === 'string') {
    if (typeof actual !== 'string') return { ok: false, why: `expected a string, got ${typeOf(actual)}` };
    return normText(expected) === normText(actual) ? { ok: true } : { ok: false, why: 'different value' };
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return { ok: false, why: `expected an array, got ${typeOf(actual)}` };
    if (actual.length !== expected.length) return { ok: false, why: `expected ${expected.length} items, got ${actual.length}` };
    for (let i = 0; i < expected.length; i++) {
      const r = matchValue(expected[i], actual[i]);
      if (!r.ok) return { ok: false, why: `[${i}]: ${r.why}` };
    }
    return { ok: true };
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return { ok: false, why: `expected an object, got ${typeOf(actual)}` };
    const ek = Object.keys(expected).sort();
    const ak = Object.keys(actual).sort();
    if (ek.join('\u0000') !== ak.join('\u0000')) return { ok: false, why: `expected keys ${ek.join(', ')}, got ${ak.join(', ') || 'none'}` };
    for (const k of ek) {
      const r = matchValue(expected[k], actual[k]);
      if (!r.ok) return { ok: false, why: `.${k}: ${r.why}` };
    }
    return { ok: true };
  }
  if (typeOf(expected) !== typeOf(actual)) return { ok: false, why: `expected ${typeOf(expected)}, got ${typeOf(actual)}` };
  return expected === actual ? { ok: true } : { ok: false, why: 'different value' };
}

function typeOf(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Every listed key, checked; the call's params must already be an object. */
export function checkParams(expected: Record<string, unknown>, actual: Record<string, unknown>): ParamCheck[] {
  return Object.keys(expected).map((key) => {
    const present = Object.prototype.hasOwnProperty.call(actual, key);
    const value = present ? actual[key] : undefined;
    const exp = expected[key];
    const absentOk = isMatcher(exp) && exp.$absent === true;
    if (!present && !absentOk) return { key, expected: exp, actual: undefined, present, ok: false, why: 'not sent' };
    const r = matchValue(exp, value);
    return { key, expected: exp, actual: value, present, ok: r.ok, ...(r.ok ? {} : { why: r.why }) };
  });
}
