// The order test files start in (vitest.config.ts `sequence.sequencer`). The suite runs two files at a time on
// a 2-core machine; a file that lasts minutes because it waits on real timers (locks, kill and resume, rate
// limits, slow engines) must start first, or it starts last and the run waits for it alone at the end. vitest's
// own order knows a file's duration only from an earlier run's cache, which a clean clone (CI) does not have:
// there it starts the largest files first. A file that lasts long says so on a line of its own among its
// opening comments, `// long-running: <why>`, and those start first, longest-declared first; the rest keep
// vitest's order (cached durations when there are some).
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const MARK = /^\/\/ long-running: .*?(?:≈\s*(\d+)\s*s)?\s*$/m;

/** The seconds a file declares it lasts (0 when it declares nothing; 1 for a mark with no figure). */
export function declaredSeconds(source: string): number {
  // Only the opening comment block counts: a mark further down is an example, not a declaration.
  const head = source.slice(0, 4000).split('\n');
  const end = head.findIndex((line) => !line.startsWith('//') && line.trim() !== '');
  const m = MARK.exec(head.slice(0, end < 0 ? head.length : end).join('\n'));
  if (!m) return 0;
  return m[1] ? Number(m[1]) : 1;
}

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const seconds = new Map<string, number>();
    for (const f of base) {
      let s = 0;
      try {
        s = declaredSeconds(readFileSync(f.moduleId, 'utf8'));
      } catch {
        s = 0;
      }
      seconds.set(f.moduleId, s);
    }
    // A stable sort: files that declare nothing keep vitest's order among themselves.
    return [...base].sort((a, b) => seconds.get(b.moduleId)! - seconds.get(a.moduleId)!);
  }
}
