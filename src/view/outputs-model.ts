// The outputs page: one row per task of an iteration (baseline beside the candidate), and one task's every
// attempt with its judges' verdicts and evidence. Rows come from the iteration's artifacts (evaluation.json,
// else baseline.json), sent as compact arrays so a 10,000-task suite is one small answer; attempts come
// from the results logs, read once per file change and indexed by task.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NO_SKILL_VARIANT } from '../config/skill-creator-dirs.js';
import { iterationPaths } from '../loop/paths.js';
import { stateLayout } from '../state/layout.js';
import type { Json } from '../state/read-lenient.js';
import { readSectionOf, type Section } from './run-model.js';

/**
 * [task id, category, split, baseline status, candidate status]; a status is '' where that side has none.
 * A standalone run measured `--without-skill` puts no skill in the baseline's place and the skill in the
 * candidate's (as its paired comparison does, src/measure/skill-effect.ts): [.., without, with].
 */
export type OutputRow = [string, string, string, string, string];

export interface OutputsTable {
  iteration: number;
  candidate: string | null;
  /** `no-skill`: the rows are the skill (candidate column) beside no skill at all (baseline column). */
  without_skill?: typeof NO_SKILL_VARIANT;
  rows: OutputRow[];
  /** Why there are no rows, or what is wrong with the artifact they come from. */
  error?: string;
}

/**
 * Where an iteration's files are: iter-NNN/ of a loop run, or — iteration 0 — the run's own folder, where a
 * standalone (or pipeline-mode) evaluation writes evaluation.json and its results logs.
 */
export function measuredDir(stateDir: string, runId: string, n: number): { dir: string; evaluation: string; baseline: string; shown: string } {
  const runDir = stateLayout.runDir(stateDir, runId);
  if (n === 0) return { dir: runDir, evaluation: join(runDir, 'evaluation.json'), baseline: join(runDir, 'evaluation.json'), shown: '' };
  const p = iterationPaths(runDir, n);
  return { dir: p.dir, evaluation: p.evaluation, baseline: p.baseline, shown: `iter-${String(n).padStart(3, '0')}/` };
}

/** Files that failed verification (src/inspect/verify-run.ts) → what is wrong: read as errors, never as values. */
export type Damaged = ReadonlyMap<string, string>;

export function outputsTable(stateDir: string, runId: string, n: number, damaged: Damaged = new Map()): OutputsTable {
  const p = measuredDir(stateDir, runId, n);
  const readSection = (file: string, shown: string): Section | undefined => (damaged.has(file) ? { error: `${shown}: ${damaged.get(file)}` } : readSectionOf(file, shown));
  const ev = readSection(p.evaluation, `${p.shown}evaluation.json`);
  if (ev && 'data' in ev && Array.isArray(ev.data.candidate_results)) {
    const base = new Map<string, Json>((Array.isArray(ev.data.baseline_results) ? ev.data.baseline_results : []).map((r: Json) => [String(r.task_id), r]));
    const rows: OutputRow[] = (ev.data.candidate_results as Json[]).map((c) => {
      const b = base.get(String(c.task_id));
      return [String(c.task_id), String(c.category ?? b?.category ?? ''), String(c.split ?? b?.split ?? ''), String(b?.status ?? ''), String(c.status ?? '')];
    });
    return { iteration: n, candidate: typeof ev.data.candidate_id === 'string' ? ev.data.candidate_id : null, rows };
  }
  const bl = n === 0 ? ev : readSection(p.baseline, `${p.shown}baseline.json`);
  if (bl && 'data' in bl && Array.isArray(bl.data.task_results) && n === 0 && bl.data.without_skill && typeof bl.data.without_skill === 'object') {
    const log = stateLayout.resultsFile(p.dir, NO_SKILL_VARIANT);
    const none = damaged.has(log) ? new Map<string, string>() : noSkillStatuses(log);
    const rows: OutputRow[] = (bl.data.task_results as Json[]).map((b) => [String(b.task_id), String(b.category ?? ''), String(b.split ?? ''), none.get(String(b.task_id)) ?? '', String(b.status ?? '')]);
    return { iteration: n, candidate: null, without_skill: NO_SKILL_VARIANT, rows };
  }
  if (bl && 'data' in bl && Array.isArray(bl.data.task_results)) {
    const rows: OutputRow[] = (bl.data.task_results as Json[]).map((b) => [String(b.task_id), String(b.category ?? ''), String(b.split ?? ''), String(b.status ?? ''), '']);
    return { iteration: n, candidate: null, rows, ...(ev && 'error' in ev ? { error: ev.error } : {}) };
  }
  const err = (ev && 'error' in ev ? ev.error : undefined) ?? (bl && 'error' in bl ? bl.error : undefined);
  return { iteration: n, candidate: null, rows: [], error: err ?? 'this iteration has no measured outputs yet' };
}

/** Each task's status in the no-skill results log, as the with-skill side's is stored (aggregate.ts `taskStatus`). */
function noSkillStatuses(file: string): Map<string, string> {
  const out = new Map<string, string>();
  const byTask = indexOf(file)?.byTask;
  for (const [task, lines] of byTask ?? []) {
    const judged = lines.filter((l) => l.status === 'pass' || l.status === 'fail');
    out.set(task, lines.every((l) => l.status === 'unjudged') ? 'unjudged' : judged.length === 0 ? 'error' : judged.some((l) => l.status === 'pass') ? 'pass' : 'fail');
  }
  return out;
}

/** A results log indexed by task, kept while the file's size and time are unchanged. */
const logs = new Map<string, { stamp: string; byTask: Map<string, Json[]>; skipped: number }>();

function attemptsOf(file: string, taskId: string): { attempts: Json[]; skipped: number } | undefined {
  const hit = indexOf(file);
  if (!hit) return undefined;
  const attempts = [...(hit.byTask.get(taskId) ?? [])].sort((a, b) => Number(a.attempt) - Number(b.attempt));
  return { attempts, skipped: hit.skipped };
}

function indexOf(file: string): { byTask: Map<string, Json[]>; skipped: number } | undefined {
  let stamp: string;
  try {
    const s = statSync(file);
    stamp = `${s.size}:${s.mtimeMs}`;
  } catch {
    return undefined;
  }
  let hit = logs.get(file);
  if (!hit || hit.stamp !== stamp) {
    const byTask = new Map<string, Json[]>();
    let skipped = 0;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const l = JSON.parse(line) as Json;
        const list = byTask.get(String(l.task_id)) ?? [];
        list.push(l);
        byTask.set(String(l.task_id), list);
      } catch {
        // A line being written as we read, or a torn one: counted, the rest still shown.
        skipped++;
      }
    }
    hit = { stamp, byTask, skipped };
    if (logs.size > 16) logs.clear();
    logs.set(file, hit);
  }
  return hit;
}

export interface VariantOutputs {
  variant: string;
  attempts: Json[];
  /** Why no attempts are shown: not run in this iteration (a cached baseline), or the log is missing. */
  note?: string;
}

/**
 * A variant's results logs: its first measurement, then the rounds a noisy engine's sequential test added,
 * named `<rounds>.round-N` — the baseline's beside a candidate are `baseline.<candidate>.round-N` (issue 38),
 * a run's from before that `baseline.round-N`.
 */
function logsOf(dir: string, variant: string, rounds0: string[] = [variant]): string[] {
  const first = stateLayout.resultsFile(dir, variant);
  let rounds: string[] = [];
  for (const prefix of rounds0) {
    rounds = roundLogs(dir, prefix);
    if (rounds.length) break;
  }
  return [first, ...rounds];
}

function roundLogs(dir: string, prefix: string): string[] {
  let rounds: string[] = [];
  try {
    const re = new RegExp(`^${prefix.replace(/[.]/g, '\\.')}\\.round-(\\d+)\\.jsonl$`);
    rounds = readdirSync(stateLayout.resultsDir(dir))
      .map((f) => [f, re.exec(f)?.[1]] as const)
      .filter((x): x is readonly [string, string] => x[1] !== undefined)
      .sort((a, b) => Number(a[1]) - Number(b[1]))
      .map(([f]) => join(stateLayout.resultsDir(dir), f));
  } catch {
    // no results folder: no logs
  }
  return rounds;
}

export function taskOutputs(stateDir: string, runId: string, n: number, taskId: string, candidate: string | null, damaged: Damaged = new Map(), withoutSkill = false): VariantOutputs[] {
  const dir = measuredDir(stateDir, runId, n).dir;
  const variants = candidate ? ['baseline', candidate] : withoutSkill ? [NO_SKILL_VARIANT, 'baseline'] : ['baseline'];
  return variants.map((v) => {
    const logs = logsOf(dir, v, v === 'baseline' && candidate ? [`baseline.${candidate}`, 'baseline'] : [v]);
    const bad = logs.find((f) => damaged.has(f));
    if (bad) return { variant: v, attempts: [], note: `${bad.slice(dir.length + 1)}: ${damaged.get(bad)}; its attempts are not shown` };
    const got = logs.map((f) => attemptsOf(f, taskId));
    if (!got[0]) return { variant: v, attempts: [], note: v === NO_SKILL_VARIANT ? 'no results log for the run without the skill' : v === 'baseline' ? 'the baseline was not run in this iteration (measured earlier and taken from the cache): its attempts are in the run that measured it' : 'no results log for this candidate' };
    const attempts = got.flatMap((g, round) => (g ? g.attempts.map((a) => (round ? { ...a, round: round + 1 } : a)) : []));
    const skipped = got.reduce((k, g) => k + (g?.skipped ?? 0), 0);
    return { variant: v, attempts, ...(skipped ? { note: `${skipped} unreadable line(s) of the logs skipped` } : {}) };
  });
}
