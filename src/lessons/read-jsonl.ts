// The memory/ files (lessons.jsonl, feedback.jsonl) read the same way: one schema-checked item a line, a
// line that is not one (a torn write, a hand edit, a foreign tool) skipped and counted so the caller can
// say so, and the sha256 of the bytes read (what an artifact records as its input).
import { existsSync, readFileSync } from 'node:fs';
import type { z } from 'zod';
import { sha256 } from '../state/artifact-io.js';

export function readJsonl<S extends z.ZodType>(file: string, schema: S): { items: z.infer<S>[]; invalid: number; sha256: string } {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const items: z.infer<S>[] = [];
  let invalid = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = schema.safeParse(JSON.parse(line));
      if (parsed.success) items.push(parsed.data);
      else invalid++;
    } catch {
      invalid++;
    }
  }
  return { items, invalid, sha256: sha256(text) };
}
