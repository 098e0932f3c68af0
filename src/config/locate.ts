// Where a problem is, in the words of messages: `file` as the user named it, `file:line:col` of a node in a
// located yaml tree, `tasks[3].judge.expected`. Apart from load-yaml.ts so that what only reads JSON
// artifacts (artifact-io.ts, and through it `status` and `show`) does not load js-yaml with the YAML reader.
import { relative } from 'node:path';
import type { Document, LineCounter } from 'yaml';
import { yamlLib } from '../core/lazy.js';

/** The yaml library, loaded on the error path only: a valid file is read by js-yaml alone (start-up time). */
export const yaml = yamlLib;

/** How file paths appear in messages: relative to the cwd when that is shorter. */
export function displayPath(file: string, cwd = process.cwd()): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && rel.length < file.length ? rel : file;
}

/** Position of the deepest existing node on `path` (the value itself, or the object missing a key). */
export function locate(doc: Document, lc: LineCounter, path: (string | number)[]): { line: number; col: number } {
  const { isNode } = yaml();
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lc.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}

/** `tasks[3].judge.expected` — the form users read in messages. */
export function formatPath(path: (string | number)[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p;
  return out || '(document)';
}
