// A state directory with thousands of runs, written directly (issue 41): one real finished standalone
// evaluation's files copied under new run ids, a minute apart, as `whet evaluate` names them. What the
// viewer's 10,000-run test and `npm run bench`'s runs-list rows read; a few seconds to write 10,000 runs.
// run.json gets the new id and times; events.jsonl and evaluation.json are copied as they are, so each run
// verifies exactly as the one it was copied from (their recorded hashes still hold).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The run id `whet evaluate` would give a run started at `at` (src/state/runs.ts newRunId). */
export const runIdAt = (at: Date, label: string): string => `${at.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}-${label}`;

/**
 * Writes `count` copies of `sourceRunDir` (a finished standalone run) into `stateDir`/runs, the newest
 * started at `newest`, each one a minute before the next. Returns the ids, oldest first.
 */
export function writeManyRuns(stateDir: string, sourceRunDir: string, count: number, newest: Date, label = 'standalone-bulk'): string[] {
  const files = readdirSync(sourceRunDir, { withFileTypes: true }).filter((e) => e.isFile() && e.name !== 'run.json');
  const copied = files.map((e) => [e.name, readFileSync(join(sourceRunDir, e.name))] as const);
  const manifest = JSON.parse(readFileSync(join(sourceRunDir, 'run.json'), 'utf8')) as Record<string, unknown>;
  const runs = join(stateDir, 'runs');
  const ids: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const at = new Date(newest.getTime() - i * 60_000);
    const id = runIdAt(at, label);
    const dir = join(runs, id);
    mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of copied) writeFileSync(join(dir, name), bytes);
    writeFileSync(join(dir, 'run.json'), `${JSON.stringify({ ...manifest, run_id: id, created_at: at.toISOString(), updated_at: new Date(at.getTime() + 5_000).toISOString() }, null, 2)}\n`);
    ids.push(id);
  }
  return ids;
}
