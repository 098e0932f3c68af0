// Dotted paths into parsed JSON, as written in a command engine's `json_path` (docs/reference/engines.md):
// `result`, `choices.0.message.content`. A segment made only of digits indexes an array; on an object it
// is an ordinary key, so `{"0": …}` is reachable too. No escapes, wildcards or filters: a path that needs
// more than this belongs in a wrapper script, not in config.

export type JsonPathLookup = { found: true; value: unknown } | { found: false; missingAt: string };

/** Splits `a.b.0` into segments; throws on an empty segment (`a..b`, `.a`, `a.`). */
export function parseJsonPath(path: string): string[] {
  const segments = path.split('.');
  if (segments.some((s) => s.length === 0)) {
    throw new Error(`invalid json_path "${path}": empty segment`);
  }
  return segments;
}

/**
 * Follows `path` into `root`. On a miss, `missingAt` is the prefix of the path that did not resolve
 * (`choices.3` when the array has three elements), for an error message that says where it broke.
 */
export function getJsonPath(root: unknown, path: string): JsonPathLookup {
  const segments = parseJsonPath(path);
  let current: unknown = root;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as string;
    const at = segments.slice(0, i + 1).join('.');
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(seg)) return { found: false, missingAt: at };
      const index = Number(seg);
      if (index >= current.length) return { found: false, missingAt: at };
      current = current[index];
    } else if (current !== null && typeof current === 'object') {
      if (!Object.prototype.hasOwnProperty.call(current, seg)) return { found: false, missingAt: at };
      current = (current as Record<string, unknown>)[seg];
    } else {
      return { found: false, missingAt: at };
    }
  }
  return { found: true, value: current };
}

/** The answer text for a JSON value: a string as is, anything else as compact JSON. */
export function jsonValueToText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
