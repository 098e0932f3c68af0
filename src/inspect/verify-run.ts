// Verifying one run (issue 31): the one check every read model makes before it shows a run — `whet status`,
// `show`, `diff`, `report`, `review` and the viewer — and that `whet verify` makes of a whole state
// directory. Each file the run holds must parse (else `file:line:col`), match its schema, and be the bytes
// whetstone recorded when it wrote it (src/state/recorded.ts). What fails is a Problem naming the file,
// what is wrong and what to do; the read models leave the file's values out rather than show them as
// measured, and say so in their exit code.
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { iterationPaths } from '../loop/paths.js';
import { iterations } from '../loop/iterations.js';
import { stateLayout } from '../state/layout.js';
import { folderLinks } from '../skill/links.js';
import { readRecords, recordedPath, type Recorded, type Records } from '../state/records-read.js';
import { checkAgainstRecord, problem, readJsonChecked, readJsonlChecked, type Problem } from '../state/verify-files.js';
import type { SchemaKind } from './verify-schemas.js';
import type { VerifiedMemo } from './verified-memo.js';

export type { Problem, ProblemKind } from '../state/verify-files.js';

export interface RunCheck {
  runId: string;
  runDir: string;
  problems: Problem[];
  /** Absolute paths of the files whose values must not be shown. */
  damaged: Set<string>;
}

export interface VerifyOptions {
  /** Check schemas too (loads zod). Default: for loop runs, whose listing loads it anyway. */
  schemas?: boolean;
  now?: Date;
  /**
   * Only run.json and events.jsonl: what `whet status` reads of a finished standalone evaluation, whose
   * artifact and results (tens of megabytes at 100,000 tasks) it never opens, so never shows.
   */
  manifestOnly?: boolean;
  /**
   * `whet status`: files verified clean before and unchanged since (size, time, inode, record) are not read
   * again (verified-memo.ts). run.json and events.jsonl are always read.
   */
  memo?: VerifiedMemo;
}

const STAGE_FILES = ['baseline', 'candidates', 'ranking', 'shardPlan', 'evaluation', 'gate', 'learning'] as const;
/** Files whetstone records as it writes them: one of these without a record was not written by it. */
const RECORDED = new Set<string>(['baseline', 'candidates', 'ranking', 'evaluation', 'gate', 'learning']);

/** A loop run's damaged artifact is measured again by resume; a standalone or pipeline run's by its own whet evaluate command, which resumes it (docs/guides/state-damage.md). */
const remeasure = (runId: string, loop: boolean) => (loop ? `"whet resume ${runId}" measures again what it held` : 'the same "whet evaluate" command resumes the run and measures again what it held');

const hints = (runId: string, loop = true) => ({
  artifact: `"whet verify --repair ${runId}" moves it to superseded/; then ${remeasure(runId, loop)}`,
  manifest: `"whet verify --repair ${runId}" rebuilds run.json from events.jsonl`,
  events: `"whet verify --repair ${runId}" moves the bad lines to superseded/`,
  eventsMissing: `the hashes recorded when the run's files were written are gone: the gate, review and rollback refuse to act on this run; restore events.jsonl from a copy of the state directory`,
  backup: `this backup cannot restore the skill as it was; restore backups/ from a copy of the state directory before "whet rollback ${runId}"`,
  leftover: `a write that never finished (a crash or a full disk): "whet verify --repair ${runId}" moves it to superseded/`,
  link: `whetstone copies into a variant only links that stay inside it: the run's folder was changed by hand; remove the link`,
});

/** An event line must be an object with `at` and a snake_case `event` (events.ts writes no other). */
function eventLine(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'is not a JSON object';
  const e = v as { at?: unknown; event?: unknown };
  if (typeof e.at !== 'string' || typeof e.event !== 'string' || !/^[a-z][a-z0-9_]*$/.test(e.event)) return 'is no event (it needs "at" and a snake_case "event")';
  return undefined;
}

/** A results line must be an object naming its task and attempt. */
function resultLine(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'is not a JSON object';
  const r = v as { task_id?: unknown; attempt?: unknown };
  return typeof r.task_id === 'string' && typeof r.attempt === 'number' ? undefined : 'is no task result (it needs "task_id" and "attempt")';
}

type Schemas = typeof import('./verify-schemas.js') | undefined;

/** Everything wrong with one run. */
export async function verifyRun(stateDir: string, runId: string, o: VerifyOptions = {}): Promise<RunCheck> {
  const runDir = stateLayout.runDir(stateDir, runId);
  const problems: Problem[] = [];
  const its = iterations(runDir);
  const manifestFile = stateLayout.runManifest(runDir);
  const m = existsSync(manifestFile) ? readJsonChecked(manifestFile, 'run.json', hints(runId).manifest) : undefined;
  const manifest = m?.ok && isObj(m.value) ? m.value : undefined;
  const loop = manifest ? manifest.mode === 'loop' : its.length > 0;
  const h = hints(runId, loop);
  const schemas: Schemas = (o.schemas ?? loop) ? await import('./verify-schemas.js') : undefined;
  // A measurement under way appends as we read: its last line may be half there.
  const live = manifest?.status === 'running';
  const recs = readRecords(runDir);

  const eventsFile = stateLayout.events(runDir);
  let started: Record<string, unknown> | undefined;
  if (existsSync(eventsFile)) {
    const ev = readJsonlChecked(eventsFile, 'events.jsonl', h.events, eventLine);
    problems.push(...ev.problems.filter((p) => !(live && p.kind === 'truncated')));
    started = ev.values.find((e) => isObj(e) && (e.event === 'run_started' || e.event === 'started')) as Record<string, unknown> | undefined;
  } else if (its.length || manifest) problems.push(problem(eventsFile, 'missing', 'events.jsonl is missing', h.eventsMissing));

  if (!m) problems.push(problem(manifestFile, 'missing', `run.json is missing, though the run's folder ${its.length ? `holds ${its.length} iteration(s)` : 'is there'}`, h.manifest));
  else if (!m.ok) problems.push(m.problem);
  else {
    // A loop run's run.json holds every task's split: its schema is checked once per version of the file.
    const stat = o.memo?.look(manifestFile) ?? '';
    const wrong = o.memo?.fresh(manifestFile, stat, undefined, !!schemas) ? undefined : schemas?.schemaProblem(loop ? 'run-loop' : 'run', m.value, m.bytes.toString('utf8'), manifestFile);
    if (wrong) problems.push(problem(manifestFile, 'schema', `run.json does not match its schema: ${wrong.message}`, h.manifest, wrong.at));
    else o.memo?.remember(manifestFile, stat, undefined, !!schemas);
    // The registered thresholds and settings are hashed in run_started: run.json must still hold them.
    for (const k of ['thresholds_sha256', 'settings_sha256'] as const) {
      if (started && typeof started[k] === 'string' && manifest && manifest[k] !== started[k]) problems.push(problem(manifestFile, 'edited', `run.json's ${k} is not the one registered when the run started (${String(started[k]).slice(0, 19)}…): its registered settings were edited`, h.manifest));
    }
  }

  if (o.manifestOnly) return done(runId, runDir, problems);
  const check = (file: string, kind: SchemaKind, what: string, recorded: boolean) => checkArtifact(problems, { file, kind, what, hint: h.artifact, runDir, recs, recorded, schemas, memo: o.memo });
  if (!loop && existsSync(join(runDir, 'evaluation.json'))) check(join(runDir, 'evaluation.json'), 'evaluation', 'evaluation.json', true);
  checkResults(problems, runDir, runDir, recs, h.artifact, schemas, live, o.memo);
  for (const n of its) {
    const p = iterationPaths(runDir, n);
    for (const f of STAGE_FILES) if (existsSync(p[f])) check(p[f], f, `iteration ${n}'s ${f === 'shardPlan' ? 'shard-plan' : f}.json`, RECORDED.has(f));
    checkResults(problems, runDir, p.dir, recs, h.artifact, schemas, live, o.memo);
    leftovers(problems, p.dir, h.leftover, o.now);
    for (const link of escapingLinks(p.variants)) problems.push(problem(link, 'link', 'a symbolic link in a variant that leads out of it', h.link));
  }
  leftovers(problems, runDir, h.leftover, o.now);
  checkBackups(problems, stateDir, runId, recs, h.backup, schemas, o.memo);
  return done(runId, runDir, problems);
}

/**
 * What `whet verify --repair` does with a problem of this run (repairRun in src/runner/repair.ts): moves a
 * damaged artifact or results log aside, for resume to measure again in a loop run (`resume`) or the same
 * `whet evaluate` command in a standalone or pipeline run (`evaluate`); mends it (run.json rebuilt from the events, bad
 * event lines or a temporary file moved aside); or nothing (a person restores it: its hint says how).
 */
export function repairOutcome(runId: string, p: Problem): 'resume' | 'evaluate' | 'mended' | 'manual' {
  const loop = hints(runId, true);
  if (p.hint === loop.artifact) return 'resume';
  if (p.hint === hints(runId, false).artifact) return 'evaluate';
  if (p.hint === loop.manifest || p.hint === loop.events || p.hint === loop.leftover) return 'mended';
  return 'manual';
}

/**
 * The closing advice for a damaged run, fitted to its problems: the repair command only when it mends
 * something, resume only when what it moves aside is measured again by resume, and otherwise that each
 * file's own hint is the way (restore it from a copy of the state directory, remove a link).
 */
export function repairAdvice(runId: string, problems: readonly Problem[]): string {
  const outcomes = new Set(problems.map((p) => repairOutcome(runId, p)));
  const repair = `"whet verify --repair ${runId}"`;
  if ([...outcomes].every((o) => o === 'manual')) return `${repair} cannot mend ${problems.length === 1 ? 'this' : 'these'}: do what each file's hint above says`;
  const then = outcomes.has('resume') ? `, then "whet resume ${runId}" measures again what it moved to superseded/` : outcomes.has('evaluate') ? ', then the same "whet evaluate" command resumes the run and measures again what it moved to superseded/' : '';
  const rest = outcomes.has('manual') ? "; what it cannot mend, do as that file's hint above says" : '';
  return `${repair}${then}${rest}`;
}

const done = (runId: string, runDir: string, problems: Problem[]): RunCheck => ({ runId, runDir, problems, damaged: new Set(problems.filter((p) => p.kind !== 'leftover').map((p) => p.path)) });

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface ArtifactCheck {
  file: string;
  kind: SchemaKind;
  what: string;
  hint: string;
  runDir: string;
  recs: Records;
  /** Whetstone records this file when it writes it. */
  recorded: boolean;
  schemas: Schemas;
  memo?: VerifiedMemo | undefined;
}

/** One JSON file: parses, is the recorded bytes, matches its schema — the first that fails is its problem. */
function checkArtifact(out: Problem[], a: ArtifactCheck): void {
  if (!a.memo) return checkArtifactNow(out, a);
  const stat = a.memo.look(a.file);
  const recorded = a.recs.hashes.get(recordedPath(a.runDir, a.file))?.sha256;
  if (a.memo.fresh(a.file, stat, recorded, !!a.schemas)) return;
  const before = out.length;
  checkArtifactNow(out, a);
  if (out.length === before) a.memo.remember(a.file, stat, recorded, !!a.schemas);
}

function checkArtifactNow(out: Problem[], a: ArtifactCheck): void {
  const rec = a.recs.hashes.get(recordedPath(a.runDir, a.file));
  if (!a.schemas && isRecorded(a.file, rec)) return;
  const r = readJsonChecked(a.file, a.what, a.hint);
  if (!r.ok) return void out.push(r.problem);
  if (rec) {
    const p = checkAgainstRecord(a.file, r.bytes, rec, a.what, a.hint);
    if (p) return void out.push(p);
  } else if (a.recorded && !a.recs.legacy && !a.recs.eventsMissing) {
    return void out.push(problem(a.file, 'unrecorded', `${a.what} has no hash recorded in events.jsonl: whetstone did not write it (or its record was removed)`, a.hint));
  }
  const wrong = a.schemas?.schemaProblem(a.kind, r.value, r.bytes.toString('utf8'), a.file);
  if (wrong) out.push(problem(a.file, 'schema', `${a.what} does not match its schema: ${wrong.message}`, a.hint, wrong.at));
}

/**
 * Whether `file` is the bytes recorded when whetstone wrote it (which parsed then): with no schema to
 * check, that is the whole check, and the file is not parsed again — at 10,000 tasks `whet show` of a
 * standalone run parsed 3 MB of evaluation.json and 5 MB of results lines to print a summary line.
 * Any other file goes through the full check, which says what is wrong.
 */
function isRecorded(file: string, rec: Recorded | undefined): boolean {
  if (rec === undefined || !existsSync(file)) return false;
  const bytes = readFileSync(file);
  // A log recorded up to some length and appended to since: the lines past the record are checked in full.
  return (rec.bytes === undefined || bytes.length === rec.bytes) && checkAgainstRecord(file, bytes, rec, '', '') === undefined;
}

/** `<dir>/results/*.jsonl` line by line, against their records; their `.meta.json` parse. */
function checkResults(out: Problem[], runDir: string, dir: string, recs: Records, hint: string, schemas: Schemas, live: boolean, memo?: VerifiedMemo): void {
  const results = stateLayout.resultsDir(dir);
  if (!existsSync(results)) return;
  for (const name of readdirSync(results).sort()) {
    const file = join(results, name);
    if (name.endsWith('.meta.json')) {
      const r = readJsonChecked(file, `results/${name}`, hint);
      if (!r.ok) out.push(r.problem);
      continue;
    }
    if (!name.endsWith('.jsonl')) continue;
    const what = `results log ${recordedPath(runDir, file)}`;
    const rec = recs.hashes.get(recordedPath(runDir, file));
    // A log's record is its hash at a length: either changing makes it checked again.
    const recorded = rec ? `${rec.sha256}:${rec.bytes ?? ''}` : undefined;
    const stat = memo?.look(file) ?? '';
    if (memo?.fresh(file, stat, recorded, !!schemas)) continue;
    if (!schemas && isRecorded(file, rec)) {
      memo?.remember(file, stat, recorded, false);
      continue;
    }
    const lines = readJsonlChecked(file, what, hint, (v) => resultLine(v) ?? (schemas ? schemas.schemaProblem('result', v, '', file)?.message : undefined));
    const found = lines.problems.filter((p) => !(live && p.kind === 'truncated'));
    if (found.length) {
      out.push(found[0]!);
      continue;
    }
    const p = rec ? checkAgainstRecord(file, readFileSync(file), rec, what, hint) : undefined;
    if (p) out.push(p);
    // A live log's torn last line is let through now, not remembered as clean.
    else if (!live) memo?.remember(file, stat, recorded, !!schemas);
  }
}

/** A temp file of an atomic write, older than a minute: a write that never finished. */
function leftovers(out: Problem[], dir: string, hint: string, now = new Date()): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (!/\.\d+\.\d+\.tmp$/.test(name)) continue;
    const file = join(dir, name);
    if (now.getTime() - statSync(file).mtimeMs > 60_000) out.push(problem(file, 'leftover', 'a temporary file left by an unfinished write', hint));
  }
}

/** Links in the variants under `dir` that lead out of their variant (a copy carries only those that stay inside). */
function escapingLinks(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((v) => folderLinks(join(dir, v)).filter((l) => !l.kept).map((l) => join(dir, v, l.rel)));
}

/** backups/<run>/iter-NNN: the manifest as recorded, and each saved file as its manifest hashes it. */
function checkBackups(out: Problem[], stateDir: string, runId: string, recs: Records, hint: string, schemas: Schemas, memo?: VerifiedMemo): void {
  const root = stateLayout.backups(stateDir, runId);
  if (!existsSync(root)) return;
  const runDir = stateLayout.runDir(stateDir, runId);
  for (const it of readdirSync(root).filter((d) => /^iter-\d+$/.test(d)).sort()) {
    const file = join(root, it, 'manifest.json');
    if (!existsSync(file)) {
      // Files saved with no manifest yet: a keep stopped before it changed anything (a full disk), which
      // the gate redoes. Damage only once a gate.json says the keep happened.
      if (existsSync(join(runDir, it, 'gate.json'))) out.push(problem(file, 'missing', `the backup of ${it} has no manifest`, hint));
      continue;
    }
    const before = out.length;
    checkArtifact(out, { file, kind: 'backup', what: `the backup manifest of ${it}`, hint, runDir, recs, recorded: true, schemas, memo });
    if (out.length > before) continue;
    const m = JSON.parse(readFileSync(file, 'utf8')) as { files?: { path?: string; existed?: boolean; sha256_before?: string | null }[] };
    for (const f of m.files ?? []) {
      if (!f.existed || typeof f.path !== 'string') continue;
      const saved = join(root, it, 'files', f.path);
      const bad = !existsSync(saved) || lstatSync(saved).isSymbolicLink() ? 'is missing' : checkAgainstRecord(saved, readFileSync(saved), { sha256: String(f.sha256_before) }, `the backup of ${f.path}`, hint) ? 'is not the file that was saved' : undefined;
      if (bad) out.push(problem(saved, bad === 'is missing' ? 'missing' : 'edited', `the backup of ${f.path} in ${it} ${bad}`, hint));
    }
  }
}
