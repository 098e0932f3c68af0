// Finding JSON inside model text. Models wrap JSON in ```json fences or add a sentence around it even
// when told not to; the json judge accepts only the fence (the output *is* the answer, so prose around
// it is a real defect), while the llm-rubric parser also digs one object out of surrounding prose
// (there the JSON is only a transport for the grade).

export type JsonParse = { ok: true; value: unknown } | { ok: false; message: string };

export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

const WHOLE_FENCE = /^```[ \t]*(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?```[ \t]*$/i;
const ANY_FENCE = /```[ \t]*(?:json)?[ \t]*\r?\n([\s\S]*?)```/i;

/** The body when the whole (trimmed) text is exactly one ```json (or bare ```) fenced block. */
export function wholeFencedBlock(text: string): string | undefined {
  const m = WHOLE_FENCE.exec(text.trim());
  // A body holding another fence means two blocks, not one.
  if (!m || m[1] === undefined || m[1].includes('```')) return undefined;
  return m[1];
}

/** The body of the first ```json (or bare ```) fenced block anywhere in the text. */
export function firstFencedBlock(text: string): string | undefined {
  return ANY_FENCE.exec(text)?.[1];
}

const PROSE_SCAN_LIMIT = 100_000;

/**
 * The first balanced `{…}` in the text that parses as a JSON object. The scan honours string
 * literals, so braces inside strings do not unbalance it.
 */
export function findJsonObject(text: string): Record<string, unknown> | undefined {
  // The scan is quadratic in the worst case; a grade never needs more than this.
  if (text.length > PROSE_SCAN_LIMIT) text = text.slice(0, PROSE_SCAN_LIMIT);
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start);
    if (end === -1) continue;
    const parsed = parseJson(text.slice(start, end + 1));
    if (parsed.ok && isPlainObject(parsed.value)) return parsed.value;
  }
  return undefined;
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Tries the whole text, then a fenced block, then one object inside prose. */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const whole = parseJson(text.trim());
  if (whole.ok && isPlainObject(whole.value)) return whole.value;
  const fenced = firstFencedBlock(text);
  if (fenced !== undefined) {
    const inner = parseJson(fenced.trim());
    if (inner.ok && isPlainObject(inner.value)) return inner.value;
  }
  return findJsonObject(text);
}
