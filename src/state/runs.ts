// Run manifests (run.json) and the bookkeeping that keeps a results file honest: each results file has
// a .meta.json naming the content it measured, and results measured on other content are moved to
// superseded/ (never deleted) before a run writes new ones.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { readArtifact } from './artifact-io.js';
import { isSafeId } from '../config/safe-id.js';
import { safeId } from '../config/safe-id-schema.js';
import { writeJsonAtomically } from '../core/atomic.js';
import { ONCE } from '../core/parse-once.js';
import { stateLayout } from './layout.js';
import { callCount } from './call-count.js';

export const runManifest = z.looseObject({
  schema: z.literal('whetstone.run/1'),
  run_id: safeId,
  mode: z.enum(['standalone', 'pipeline', 'loop']),
  /** incomplete: finished with task errors, which the next identical run retries (keeping the rest). */
  status: z.enum(['running', 'completed', 'incomplete', 'failed', 'interrupted', 'budget_exhausted', 'rate_limited']),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  target: z.looseObject({ skill_path: z.string(), sha256: z.string() }).optional(),
  suite: z.looseObject({ path: z.string(), sha256: z.string() }).optional(),
  engine: z.record(z.string(), z.unknown()).optional(),
  config: z.object({ path: z.string().nullable(), sha256: z.string() }).optional(),
  evaluation_key: z.string().optional(),
  pass_k: z.number().int().optional(),
  /**
   * How a finished standalone evaluation ended, written with its last manifest (a resume rewrites the
   * manifest without it first): `whet status` reads this instead of the evaluation artifact and every
   * results line, which at 100,000 tasks is tens of megabytes for one line of output.
   */
  summary: z
    .object({
      verdict: z.string(),
      engine_calls: z.number().nullable(),
      /** What `whet show RUN` says of the measurement (absent in runs written before it was kept). */
      pass_rate: z.number().nullable().optional(),
      passed: z.number().int().optional(),
      total_tasks: z.number().int().optional(),
      totals: z.object({ engine_calls: z.number(), calls: callCount.optional(), cost_usd: z.number(), input_tokens: z.number(), output_tokens: z.number() }),
    })
    .optional(),
});
export type RunManifest = z.infer<typeof runManifest>;

export async function writeRunManifest(runDir: string, m: RunManifest): Promise<void> {
  await writeJsonAtomically(stateLayout.runManifest(runDir), runManifest.parse(m, ONCE));
}

export function readRunManifest(runDir: string): RunManifest | undefined {
  const file = stateLayout.runManifest(runDir);
  if (!existsSync(file)) return undefined;
  return readArtifact(file, runManifest, 'run manifest');
}

export function newRunId(stateDir: string, label: string, now: Date): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  const safe = label.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '').slice(0, 60) || 'run';
  const base = `${stamp}-${safe}`;
  let id = base;
  for (let n = 2; existsSync(stateLayout.runDir(stateDir, id)); n++) id = `${base}-${n}`;
  return id;
}

/** The newest unfinished (or finished-with-errors) standalone run of exactly this content, to be resumed. */
export function findResumableRun(stateDir: string, evaluationKey: string): string | undefined {
  const runs = stateLayout.runsDir(stateDir);
  if (!existsSync(runs)) return undefined;
  // A folder whose name is no safe id is not a run whetstone made (nor one it can address).
  const ids = readdirSync(runs).filter(isSafeId).sort().reverse();
  for (const id of ids) {
    const file = stateLayout.runManifest(join(runs, id));
    if (!existsSync(file)) continue;
    try {
      const m = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunManifest>;
      if (m.mode === 'standalone' && m.evaluation_key === evaluationKey && (m.status === 'running' || m.status === 'interrupted' || m.status === 'incomplete' || m.status === 'budget_exhausted' || m.status === 'rate_limited')) return id;
    } catch {
      // An unreadable manifest is not a run we can resume.
    }
  }
  return undefined;
}

/**
 * Makes `results/<variant>.jsonl` belong to `contentKey`: results measured on other content move to
 * superseded/ first. Returns the results file path.
 */
export async function prepareResultsFile(dir: string, variant: string, contentKey: string, now: Date): Promise<string> {
  const file = stateLayout.resultsFile(dir, variant);
  const meta = `${file.slice(0, -'.jsonl'.length)}.meta.json`;
  let current: string | undefined;
  try {
    current = (JSON.parse(readFileSync(meta, 'utf8')) as { key?: string }).key;
  } catch {
    current = undefined;
  }
  if (existsSync(file) && current !== contentKey) {
    supersedeFile(dir, file, now);
    if (existsSync(meta)) supersedeFile(dir, meta, now);
  }
  if (current !== contentKey || !existsSync(meta)) await writeJsonAtomically(meta, { key: contentKey, variant });
  return file;
}

/**
 * Moves `file` to `<dir>/superseded/<time>-<name>` (kept, never deleted) and returns where it went, or
 * undefined when there was nothing to move. One scheme for results and artifacts alike.
 */
export function supersedeFile(dir: string, file: string, now: Date): string | undefined {
  if (!existsSync(file)) return undefined;
  const dest = stateLayout.supersededDir(dir);
  mkdirSync(dest, { recursive: true });
  const to = join(dest, `${now.toISOString().replace(/[:.]/g, '-')}-${basename(file)}`);
  renameSync(file, to);
  return to;
}
