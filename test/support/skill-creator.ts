// skill-creator's own programs, run unchanged from ../shared/compat with python3 (stdlib only): what a
// skill author runs on a workspace. The viewer's --static page embeds the runs it found as
// `const EMBEDDED_DATA = {...};`, which is read back here to see exactly what it found.
import { expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, sharedDir, tempDir } from './cli.js';

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

/**
 * skill-creator's viewer and aggregator on the workspace `ws` that whetstone wrote: every run of
 * benchmark.json found by both, with its prompt and answer, and the same mean pass rate per configuration.
 */
export function readBySkillCreator(ws: string): { bench: any; viewer: ViewerRun[] } {
  const bench = readJson(join(ws, 'benchmark.json'));
  const view = viewerRuns(ws);
  expect(view.code, view.stderr).toBe(0);
  const runId = (r: any) => `eval-${r.eval_id}-${r.configuration}-run-${r.run_number}`;
  expect(view.runs.map((r) => r.id).sort()).toEqual(bench.runs.map(runId).sort());
  for (const v of view.runs) {
    const meta = readJson(join(ws, v.id.replace(/-(with_skill|without_skill|new_skill|old_skill)-.*$/, ''), 'eval_metadata.json'));
    expect(v.prompt).toBe(meta.prompt);
    expect(v.prompt).not.toBe('(No prompt found)');
    expect(v.eval_id).toBe(meta.eval_id);
    const answer = v.outputs.find((o) => o.name === 'answer.md');
    expect(answer?.type).toBe('text');
    const mine = bench.runs.find((r: any) => runId(r) === v.id);
    // A judged run carries its grading; an error or unjudged eval none (0/0 would pull the mean down).
    expect(v.grading === null, v.id).toBe(mine.whetstone.status !== 'pass' && mine.whetstone.status !== 'fail');
    if (v.grading) expect(v.grading.summary?.pass_rate).toBe(mine.result.pass_rate);
  }
  const agg = aggregate(ws).benchmark;
  const judged = bench.runs.filter((r: any) => r.whetstone.status === 'pass' || r.whetstone.status === 'fail');
  expect(agg.runs.map((r) => `${r.eval_id}-${r.configuration}-${r.run_number}`).sort()).toEqual(judged.map((r: any) => `${r.eval_id}-${r.configuration}-${r.run_number}`).sort());
  const configurations = Object.keys(bench.run_summary).filter((k) => k !== 'delta');
  expect(Object.keys(agg.run_summary).filter((k) => k !== 'delta').sort()).toEqual(configurations.sort());
  for (const c of configurations) expect(agg.run_summary[c]!.pass_rate.mean, c).toBeCloseTo(bench.run_summary[c].pass_rate.mean, 4);
  if (configurations.length === 2) expect(agg.run_summary.delta.pass_rate).toBe(bench.run_summary.delta.pass_rate);
  return { bench, viewer: view.runs };
}

