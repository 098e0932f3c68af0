// Task ids for suites written in other formats (skill-creator's evals.json and trigger sets, promptfoo
// tests). Their ids are numbers, free text, CJK, or missing; whetstone's ids become file and directory
// names, so each is turned into a safe one (`eval-0`, `eval-ocean-swim`) and the author's own id is kept
// beside it in the task's `origin`. Two different originals that slug alike get `-2`, `-3`…; a text with
// no letters a slug can keep (Korean, Chinese) is named by a short hash of itself, so it stays stable.
import { createHash } from 'node:crypto';
import { SAFE_ID } from './suite-schema.js';

const MAX_SLUG = 100;

/** Lowercase ASCII letters, digits, `.`, `_`, `-`; accents dropped; everything else one `-`. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/[-._]+$/g, '');
}

/** The safe id of one original id (`prefix-<n>` for numbers, `prefix-<slug>` for text). */
export function safeIdFor(original: string | number, prefix: string): string {
  if (typeof original === 'number') return `${prefix}-${Number.isInteger(original) ? original : slugify(String(original))}`;
  const slug = slugify(original);
  const id = `${prefix}-${slug || createHash('sha256').update(original).digest('hex').slice(0, 10)}`;
  if (!SAFE_ID.test(id)) throw new Error(`internal: derived id ${JSON.stringify(id)} is not safe`);
  return id;
}

/** Hands out safe ids, unique within one suite. */
export class IdAllocator {
  private readonly used = new Set<string>();
  constructor(private readonly prefix: string) {}

  take(original: string | number): string {
    const base = safeIdFor(original, this.prefix);
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base}-${n}`;
    this.used.add(id);
    return id;
  }
}
