// How the read models (`whet status`, `whet show`, finding the newest loop run) read a state file: as plain
// JSON, or undefined when it is missing or unreadable — they show what they can, and load no schema. The
// commands that act on a file read it through its schema (artifact-io.ts) and name what is wrong there.
import { readFileSync } from 'node:fs';

/** What a read model picks fields from, any of which may be absent. */
export type Json = Record<string, any>;

/** A state file as plain JSON, or undefined when it is missing or unreadable. */
export function readLenient(file: string): Json | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Json;
  } catch {
    return undefined;
  }
}
