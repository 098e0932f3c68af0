// What the viewer's runs list and run page show, from the state directory alone: run.json, events.jsonl,
// every artifact of every iteration and the results logs as they grow — so a run another process, a CI
// job or a shard is writing shows up and advances. Each file is read on its own: a malformed or half-written
// artifact becomes an error on its own section, and nothing else about the run is lost.
import { verifyRun } from '../inspect/verify-run.js';
import type { Problem } from '../state/verify-files.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { listRuns, liveStatus, resumeHint, type RunStatus } from '../inspect/status.js';
import { iterations } from '../loop/iterations.js';
import { iterationPaths } from '../loop/paths.js';
import { stateLayout } from '../state/layout.js';
import { isSafeId } from '../config/safe-id.js';
import { readLenient, type Json } from '../state/read-lenient.js';

export type Section = { data: Json } | { error: string };

/** An artifact as a section of a page: its JSON, or what is wrong with it; undefined when not written yet. */
export function readSectionOf(file: string, shown: string): Section | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return { error: `${shown} is not a JSON object` };
    return { data: data as Json };
  } catch (err) {
    return { error: `${shown} cannot be read (${(err as Error).message}); it may be half-written or damaged` };
  }
}

/** Distinct tasks in a results log (one line per attempt), counted without holding the lines. */
function tasksIn(file: string): { tasks: number; first: number | null } {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { tasks: 0, first: null };
  }
  const ids = new Set<string>();
  let first: number | null = null;
  for (const line of text.split('\n')) {
    const m = /^\{"task_id":("(?:[^"\\]|\\.)*")/.exec(line);
    if (m) ids.add(m[1]!);
    if (first === null) {
      const t = /"finished_at":"([^"]+)"/.exec(line);
      if (t) first = Date.parse(t[1]!);
    }
  }
  return { tasks: ids.size, first };
}

export interface Progress {
  iteration: number;
  variant: string;
  judged: number;
  total: number;
  /** Estimated from the pace so far; null before there is a pace. */
  left_ms: number | null;
}

/** A running loop's current evaluation: tasks judged in its newest results log, of the suite's tasks. */
export function progressOf(runDir: string, manifest: Json | undefined, now: Date): Progress | null {
  if (manifest?.status !== 'running') return null;
  const its = iterations(runDir);
  const n = its[its.length - 1];
  if (n === undefined) return null;
  const dir = stateLayout.resultsDir(iterationPaths(runDir, n).dir);
  if (!existsSync(dir)) return null;
  const logs = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => ({ f, m: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.m - a.m);
  const newest = logs[0];
  if (!newest) return null;
  const total = Object.keys(manifest?.settings?.splits ?? {}).length;
  const { tasks, first } = tasksIn(join(dir, newest.f));
  const elapsed = first === null ? 0 : now.getTime() - first;
  const left = tasks > 0 && total > tasks && elapsed > 0 ? Math.round((elapsed / tasks) * (total - tasks)) : null;
  return { iteration: n, variant: newest.f.replace(/\.jsonl$/, ''), judged: tasks, total, left_ms: left };
}

export interface RunRow extends RunStatus {
  progress: Progress | null;
  /** Why run.json cannot be read: the run is listed with it instead of left out. */
  error?: string;
}

export async function runRows(stateDir: string, now: Date): Promise<RunRow[]> {
  const runs = await listRuns(stateDir, now);
  const rows: RunRow[] = runs.map((r) => {
    const runDir = stateLayout.runDir(stateDir, r.run_id);
    // A run whose process is gone (status says interrupted) has no progress to show.
    return { ...r, progress: r.status === 'running' ? progressOf(runDir, readLenient(stateLayout.runManifest(runDir)), now) : null };
  });
  // `whet status` skips a run whose run.json it cannot read; a person looking at the state should see it.
  const listed = new Set(runs.map((r) => r.run_id));
  const dir = stateLayout.runsDir(stateDir);
  for (const id of existsSync(dir) ? readdirSync(dir).filter((d) => isSafeId(d) && !listed.has(d)).sort() : []) {
    const s = readSectionOf(stateLayout.runManifest(stateLayout.runDir(stateDir, id)), `runs/${id}/run.json`);
    if (!s || !('error' in s)) continue;
    const blank = { engine_calls: 0, calls: { engine: 0, judge: 0, generator: 0, total: 0 }, cost_usd: 0, input_tokens: 0, output_tokens: 0 };
    rows.push({ run_id: id, mode: '?', status: 'unreadable', target: '?', iteration: null, last_stage: null, decisions: [], verdict: null, next: '-', updated_at: '', age_ms: 0, engine_calls: null, totals: blank, rolled_back_at: null, rate_limit: null, problems: [], progress: null, error: s.error });
  }
  return rows.sort((a, b) => (a.run_id < b.run_id ? -1 : a.run_id > b.run_id ? 1 : 0));
}

/** Fields of an artifact the run page does not draw and that grow with the suite (10,000 rows): left out. */
const BULKY = ['task_results', 'candidate_results', 'baseline_results'];

function trimmed(s: Section | undefined): Section | undefined {
  if (!s || 'error' in s) return s;
  const data: Json = { ...s.data };
  for (const k of BULKY) if (Array.isArray(data[k])) data[k] = { rows: (data[k] as unknown[]).length };
  const seq = data.evaluation?.sequential;
  if (seq && Array.isArray(seq.tasks)) data.evaluation = { ...data.evaluation, sequential: { ...seq, tasks: { rows: seq.tasks.length } } };
  return { data };
}

const FILES = ['baseline', 'candidates', 'ranking', 'evaluation', 'gate', 'learning'] as const;

export interface RunDetail {
  run_id: string;
  manifest: Section | undefined;
  progress: Progress | null;
  iterations: { iteration: number; sections: Partial<Record<(typeof FILES)[number], Section>> }[];
  /** A standalone (or pipeline-mode) run's evaluation.json, its outputs at iteration 0. */
  standalone?: Section;
  /** The newest events (events.jsonl), newest last; a line that does not parse is shown as it is. */
  events: Json[];
  /** What failed verification (src/inspect/verify-run.ts, the check every read model makes): its values are not shown. */
  problems: Problem[];
}

export async function runDetail(stateDir: string, runId: string, now: Date): Promise<RunDetail | undefined> {
  const runDir = stateLayout.runDir(stateDir, runId);
  if (!existsSync(runDir)) return undefined;
  // A file that parses but was edited after whetstone wrote it (or fails its schema) reads as an error on its
  // section, as a half-written one does: never as values that were measured.
  const check = await verifyRun(stateDir, runId);
  const readSection = (file: string, shown: string): Section | undefined => {
    const bad = check.problems.find((p) => p.path === file && check.damaged.has(file));
    return bad ? { error: `${shown}: ${bad.message}` } : readSectionOf(file, shown);
  };
  const manifest = readSection(stateLayout.runManifest(runDir), `runs/${runId}/run.json`);
  const its = iterations(runDir).map((n) => {
    const p = iterationPaths(runDir, n);
    const sections: RunDetail['iterations'][number]['sections'] = {};
    for (const f of FILES) {
      const s = trimmed(readSection(p[f], `iter-${String(n).padStart(3, '0')}/${f}.json`));
      if (s) sections[f] = s;
    }
    return { iteration: n, sections };
  });
  let events: Json[] = [];
  try {
    const lines = readFileSync(stateLayout.events(runDir), 'utf8').split('\n').filter((l) => l.trim());
    events = lines.slice(-40).map((l) => {
      try {
        return JSON.parse(l) as Json;
      } catch {
        return { event: 'unreadable_line', text: l.slice(0, 200) };
      }
    });
  } catch {
    // No events yet: the page shows none.
  }
  let m = manifest && 'data' in manifest ? manifest.data : undefined;
  // run.json says running, but the process that ran it is gone (kill -9, a reboot): shown as interrupted.
  const live = m ? liveStatus(stateDir, runId, String(m.status)) : undefined;
  if (m && manifest && 'data' in manifest && live?.because) manifest.data = m = { ...m, status: live.status, interrupted_because: live.because, resume_hint: resumeHint(runId, String(m.mode)) };
  const standalone = m?.mode === 'loop' ? undefined : trimmed(readSection(join(runDir, 'evaluation.json'), 'evaluation.json'));
  return { run_id: runId, manifest, progress: progressOf(runDir, m, now), iterations: its, events, problems: check.problems, ...(standalone ? { standalone } : {}) };
}
