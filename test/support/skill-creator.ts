// skill-creator's own programs, run unchanged from ../shared/compat with python3 (stdlib only): what a
// skill author runs on a workspace. The viewer's --static page embeds the runs it found as
// `const EMBEDDED_DATA = {...};`, which is read back here to see exactly what it found.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDir, tempDir } from './cli.js';

export const skillCreatorDir = join(sharedDir, 'compat/anthropic-skills/skill-creator');

export interface ViewerRun {
  id: string;
  prompt: string;
  eval_id: number | null;
  outputs: { name: string; type: string; content?: string }[];
  grading: { summary?: { pass_rate: number }; expectations?: { text: string; passed: boolean; evidence: string }[] } | null;
}

function python(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync('python3', args, { cwd: skillCreatorDir, encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** eval-viewer/generate_review.py WORKSPACE --static FILE: the runs it embedded in the page. */
export function viewerRuns(workspace: string): { code: number; stderr: string; runs: ViewerRun[] } {
  const page = join(tempDir('whet-sc-view-'), 'review.html');
  const r = python(['eval-viewer/generate_review.py', workspace, '--static', page]);
  if (r.code !== 0) return { code: r.code, stderr: r.stderr, runs: [] };
  const html = readFileSync(page, 'utf8');
  const m = /const EMBEDDED_DATA = (\{.*\});\n/.exec(html);
  if (!m) throw new Error('the viewer page embeds no data');
  return { code: 0, stderr: r.stderr, runs: (JSON.parse(m[1]!) as { runs: ViewerRun[] }).runs };
}

export interface AggregatedBenchmark {
  runs: { eval_id: number; configuration: string; run_number: number; result: { pass_rate: number } }[];
  run_summary: Record<string, { pass_rate: { mean: number } }> & { delta: { pass_rate: string } };
}

/** scripts/aggregate_benchmark.py WORKSPACE -o FILE (elsewhere, so whetstone's benchmark.json stays as written). */
export function aggregate(workspace: string): { code: number; stdout: string; benchmark: AggregatedBenchmark } {
  const out = join(tempDir('whet-sc-agg-'), 'benchmark.json');
  const r = python(['scripts/aggregate_benchmark.py', workspace, '--output', out]);
  if (r.code !== 0) throw new Error(`aggregate_benchmark.py exited ${r.code}: ${r.stdout}${r.stderr}`);
  return { code: r.code, stdout: r.stdout, benchmark: JSON.parse(readFileSync(out, 'utf8')) as AggregatedBenchmark };
}
