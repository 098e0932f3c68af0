// What the viewer's runs list and run page show, from the state directory alone: run.json, events.jsonl,
// every artifact of every iteration and the results logs as they grow — so a run another process, a CI
// job or a shard is writing shows up and advances. Each file is read on its own: a malformed or half-written
// artifact becomes an error on its own section, and nothing else about the run is lost.
import { verifyRun } from '../inspect/verify-run.js';
import type { Problem } from '../state/verify-files.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { liveStatus, resumeHint, type RunStatus } from '../inspect/status.js';
import { iterations } from '../loop/iterations.js';
import { iterationPaths } from '../loop/paths.js';
import { stateLayout } from '../state/layout.js';
import type { Json } from '../state/read-lenient.js';
import { engineOf, type EngineBadge } from './engine-badge.js';

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
  /** The engine badge (engine-badge.ts): null before a loop run's first measurement names it. */
  engine: EngineBadge | null;
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
  return { run_id: runId, manifest, engine: engineOf(runDir, m), progress: live?.because ? null : progressOf(runDir, m, now), iterations: its, events, problems: check.problems, ...(standalone ? { standalone } : {}) };
}
