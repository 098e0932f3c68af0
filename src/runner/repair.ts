// `whet verify --repair`: what verify-run.ts found damaged is moved to superseded/ (never deleted), so that
// `whet resume` measures again what those files held, and a lost run.json is rebuilt from run_started,
// which carries the manifest registered when the run began (issue 31). A measurement is redone from the
// first damaged stage on: everything after it was computed from it, so the later artifacts and iterations
// move too, and a keep they applied to the skill is undone first (the skill is then as that stage saw it).
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { appendAtomically, writeFileAtomicallySync } from '../core/atomic.js';
import { iterationPaths } from '../loop/paths.js';
import { iterations, STEPS, type Step } from '../loop/iterations.js';
import { stateLayout } from '../state/layout.js';
import { supersedeFile } from '../state/runs.js';
import { appendEvent } from '../state/events.js';
import type { RunCheck } from '../inspect/verify-run.js';
import type { StateCheck } from '../inspect/verify-state.js';
import { supersedeFrom } from './supersede.js';
import { undoPromotionsFrom } from './repair-promotions.js';
import { rebuildManifest } from './repair-manifest.js';
import { historyLineRead } from '../nightly/schema.js';

export interface RepairReport {
  /** What was done, one line each. */
  done: string[];
  /** What could not be repaired, and why. */
  left: string[];
}

const STEP_OF: Record<string, Step> = {
  'baseline.json': 'baseline',
  'candidates.json': 'generate',
  'ranking.json': 'discriminate',
  'shard-plan.json': 'evaluate',
  'evaluation.json': 'evaluate',
  'gate.json': 'gate',
  'learning.json': 'learn',
};

const stamp = (now: Date) => now.toISOString().replace(/[:.]/g, '-');

/** The stage that wrote a damaged file of iteration folder `iter`: a results log is its measurement's. */
function stepOf(iterDir: string, file: string): Step | undefined {
  if (dirname(file) === iterDir) return STEP_OF[basename(file)];
  if (dirname(file) === stateLayout.resultsDir(iterDir)) return basename(file).startsWith('baseline') ? 'baseline' : 'evaluate';
  return undefined;
}

/** Repairs one run as far as it can (the caller holds the state lock). */
export async function repairRun(stateDir: string, check: RunCheck, now: Date): Promise<RepairReport> {
  const r: RepairReport = { done: [], left: [] };
  const { runDir, runId } = check;
  const rel = (f: string) => relative(stateDir, f);
  const bad = check.problems;
  // Events first: every later step appends to them.
  if (bad.some((p) => p.path === stateLayout.events(runDir) && (p.kind === 'garbage' || p.kind === 'truncated'))) r.done.push(cleanLog(stateLayout.events(runDir), runDir, now, rel));

  // The earliest damaged stage of a loop run: it and all after it are measured again.
  let from: { n: number; step: Step } | undefined;
  for (const n of iterations(runDir)) {
    const dir = iterationPaths(runDir, n).dir;
    for (const p of bad) {
      const step = p.kind === 'link' || p.kind === 'leftover' ? undefined : stepOf(dir, p.path);
      if (step && (!from || n < from.n || (n === from.n && STEPS.indexOf(step) < STEPS.indexOf(from.step)))) from = { n, step };
    }
  }
  let superseded = false;
  if (from) {
    try {
      r.done.push(...(await undoPromotionsFrom(stateDir, runId, from.n, from.step, now)));
      const p = iterationPaths(runDir, from.n);
      for (const f of bad.filter((x) => dirname(x.path) === stateLayout.resultsDir(p.dir))) {
        const to = supersedeFile(p.dir, f.path, now);
        const meta = `${f.path.slice(0, -'.jsonl'.length)}.meta.json`;
        if (existsSync(meta)) supersedeFile(p.dir, meta, now);
        if (to) r.done.push(`moved ${rel(f.path)} to ${rel(to)}`);
      }
      const moved = supersedeFrom({ runDir, iteration: from.n, from: from.step, now });
      if (moved.length) r.done.push(`moved ${moved.join(', ')} of iteration ${from.n} to ${rel(join(p.dir, 'superseded', stamp(now)))}/`);
      for (const n of iterations(runDir).filter((k) => k > from!.n)) {
        const dest = join(runDir, 'superseded', stamp(now));
        mkdirSync(dest, { recursive: true });
        renameSync(iterationPaths(runDir, n).dir, join(dest, basename(iterationPaths(runDir, n).dir)));
        r.done.push(`moved iteration ${n}, computed after the damaged ${from.step} of iteration ${from.n}, to ${rel(dest)}/`);
      }
      const lessons = dropLessons(stateDir, runId, from.n, now);
      if (lessons) r.done.push(`moved ${lessons} lesson(s) this run learned from iteration ${from.n} on to memory/superseded/: the generator must not skip what it will measure again`);
      superseded = true;
    } catch (err) {
      r.left.push(`${from.step} of iteration ${from.n} and what followed: not moved: ${(err as Error).message}`);
    }
  }
  // A standalone run: the damaged evaluation and logs move; running the same evaluate command resumes it.
  if (!iterations(runDir).length) {
    for (const p of bad.filter((x) => x.path === join(runDir, 'evaluation.json') || dirname(x.path) === stateLayout.resultsDir(runDir))) {
      const to = supersedeFile(runDir, p.path, now);
      if (to) {
        r.done.push(`moved ${rel(p.path)} to ${rel(to)}`);
        superseded = true;
      }
    }
  }
  for (const p of bad.filter((x) => x.kind === 'leftover')) {
    const to = supersedeFile(dirname(p.path), p.path, now);
    if (to) r.done.push(`moved ${rel(p.path)} to ${rel(to)}`);
  }
  for (const p of bad.filter((x) => x.kind === 'link' || x.path.includes(`${'/'}backups${'/'}`))) r.left.push(`${p.file}: not repaired: ${p.hint}`);

  const manifest = stateLayout.runManifest(runDir);
  const manifestBad = bad.some((p) => p.path === manifest);
  const m = await rebuildManifest(stateDir, runDir, { rebuild: manifestBad, superseded, now });
  if (m.message) (m.ok ? r.done : r.left).push(m.message);
  if (superseded || manifestBad) appendEvent(runDir, { event: 'repaired', done: r.done, left: r.left }, now);
  return r;
}

const isEvent = (v: Record<string, unknown>) => typeof v.at === 'string' && typeof v.event === 'string' && /^[a-z][a-z0-9_]*$/.test(v.event);

/** A JSONL log without its lines that are not JSON objects (`ok` ones); those go to superseded/ beside it. */
export function cleanLog(file: string, dir: string, now: Date, rel: (f: string) => string, ok: (v: Record<string, unknown>) => boolean = isEvent): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  const keep: string[] = [];
  const drop: string[] = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === 'object' && v !== null && !Array.isArray(v) && ok(v as Record<string, unknown>)) keep.push(line);
      else drop.push(line);
    } catch {
      drop.push(line);
    }
  }
  const aside = join(stateLayout.supersededDir(dir), `${stamp(now)}-${basename(file, '.jsonl')}-bad-lines.txt`);
  mkdirSync(dirname(aside), { recursive: true });
  appendAtomically(aside, `${drop.join('\n')}\n`);
  writeFileAtomicallySync(file, keep.length ? `${keep.join('\n')}\n` : '');
  return `moved ${drop.length} bad line(s) of ${rel(file)} to ${rel(aside)}`;
}

/** `whet verify --repair` over a state directory: each damaged run, then the files shared by runs. */
export async function repairState(stateDir: string, check: StateCheck, now: Date): Promise<RepairReport> {
  const r: RepairReport = { done: [], left: [] };
  for (const run of check.runs.filter((x) => x.problems.length)) {
    const one = await repairRun(stateDir, run, now);
    r.done.push(...one.done.map((d) => `${run.runId}: ${d}`));
    r.left.push(...one.left.map((d) => `${run.runId}: ${d}`));
  }
  const rel = (f: string) => relative(stateDir, f);
  const nightly = join(stateDir, 'nightly');
  const cleaned = new Set<string>();
  for (const p of check.shared) {
    if (p.path.startsWith(stateLayout.baselineCacheDir(stateDir))) {
      const to = supersedeFile(join(stateDir, 'cache'), p.path, now);
      if (to) r.done.push(`moved ${rel(p.path)} to ${rel(to)}`);
    } else if (p.path === stateLayout.lessons(stateDir)) r.done.push(cleanLog(p.path, dirname(p.path), now, rel, () => true));
    else if (dirname(p.path) === nightly) {
      // A history file with several bad lines is one problem per line: cleaned once.
      if (basename(p.path) === 'history.jsonl') {
        if (!cleaned.has(p.path)) r.done.push(cleanLog(p.path, nightly, now, rel, (v) => historyLineRead.safeParse(v).success));
        cleaned.add(p.path);
      } else {
        const to = supersedeFile(nightly, p.path, now);
        if (to) r.done.push(`moved ${rel(p.path)} to ${rel(to)}`);
      }
    }
    else if (p.kind === 'stale-lock') r.done.push(`swept the stale lock (${p.message})`);
    else r.left.push(`${p.file}: not repaired: ${p.hint}`);
  }
  return r;
}

/** Lessons of `runId` from iteration `from` on, moved out of memory/lessons.jsonl (they came from moved artifacts). */
function dropLessons(stateDir: string, runId: string, from: number, now: Date): number {
  const file = stateLayout.lessons(stateDir);
  if (!existsSync(file)) return 0;
  const keep: string[] = [];
  const drop: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let mine = false;
    try {
      const l = JSON.parse(line) as { run_id?: unknown; iteration?: unknown };
      mine = l.run_id === runId && typeof l.iteration === 'number' && l.iteration >= from;
    } catch {
      // not a lesson of this run: left where it is (whet verify names a bad line)
    }
    (mine ? drop : keep).push(line);
  }
  if (!drop.length) return 0;
  const aside = join(stateLayout.supersededDir(dirname(file)), `${stamp(now)}-lessons.jsonl`);
  mkdirSync(dirname(aside), { recursive: true });
  appendAtomically(aside, `${drop.join('\n')}\n`);
  writeFileAtomicallySync(file, keep.length ? `${keep.join('\n')}\n` : '');
  return drop.length;
}
