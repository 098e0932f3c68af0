// memory/lessons.jsonl: what was tried on which target and with what effect, one lesson a line. The
// generator reads it to skip contents already rejected, the discriminator to demote categories that keep
// failing, and the learner writes one lesson per (run, iteration). The file is rewritten atomically on
// each record (it is small), so a crash leaves the old file or the new one and never half a line, and a
// learn re-run after a crash finds its lesson already there instead of appending a duplicate.
import { existsSync, readFileSync } from 'node:fs';
import { canonicalJson } from '../state/artifact-io.js';
import { writeFileAtomically } from '../core/atomic.js';
import { readJsonl } from './read-jsonl.js';
import { lesson as lessonSchema, type Lesson } from '../artifacts/learning.js';

export interface LessonsRead {
  lessons: Lesson[];
  /** Lines that are not a valid lesson (hand edits, a foreign tool); skipped, and counted so callers can say so. */
  invalid: number;
  /** sha256 of the file's bytes, or of "" when there is no file (an envelope input). */
  sha256: string;
}

export function readLessons(file: string): LessonsRead {
  const { items, invalid, sha256 } = readJsonl(file, lessonSchema);
  return { lessons: items, invalid, sha256 };
}

/** The lessons about one target (its skill folder, as run.json names it). */
export function lessonsFor(lessons: readonly Lesson[], target: string): Lesson[] {
  return lessons.filter((l) => l.target === target);
}

/** Content hashes (SKILL.md sha256) that were evaluated on this target and rejected. */
export function rejectedContents(lessons: readonly Lesson[]): Map<string, Lesson> {
  const out = new Map<string, Lesson>();
  for (const l of lessons) if (l.decision === 'reject' && l.content_sha256) out.set(l.content_sha256, l);
  return out;
}

/**
 * Content hashes held for review in run `runId`. The target does not change while a candidate waits, so
 * the next iteration would propose the same content again and spend a full evaluation to hold it twice.
 * Only this run's: a hold from an abandoned run must not block a content forever.
 */
export function pendingContents(lessons: readonly Lesson[], runId: string): Map<string, Lesson> {
  const out = new Map<string, Lesson>();
  for (const l of lessons) if (l.decision === 'pending_review' && l.run_id === runId && l.content_sha256) out.set(l.content_sha256, l);
  return out;
}

/** The lesson's meaning without its timestamp: two records of the same outcome compare equal. */
const sameLesson = (a: Lesson, b: Lesson) => canonicalJson({ ...a, at: '' }) === canonicalJson({ ...b, at: '' });

/**
 * Records `lesson` once per (run_id, iteration). Already there and equal → unchanged (the crash-and-rerun
 * case). Already there but different → replaced in place: the iteration was redone (`whet run --from`),
 * and its old outcome no longer describes what happened.
 */
export async function recordLesson(file: string, lesson: Lesson): Promise<'appended' | 'unchanged' | 'replaced'> {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const at = lines.findIndex((line) => {
    try {
      const l = JSON.parse(line) as Partial<Lesson>;
      return l.run_id === lesson.run_id && l.iteration === lesson.iteration;
    } catch {
      return false;
    }
  });
  if (at >= 0) {
    const existing = lessonSchema.safeParse(JSON.parse(lines[at]!));
    if (existing.success && sameLesson(existing.data, lesson)) return 'unchanged';
    lines[at] = JSON.stringify(lesson);
    await writeFileAtomically(file, `${lines.join('\n')}\n`);
    return 'replaced';
  }
  lines.push(JSON.stringify(lesson));
  await writeFileAtomically(file, `${lines.join('\n')}\n`);
  return 'appended';
}
