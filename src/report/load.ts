// Reads everything a report of one run needs from the state directory, leniently: a file that is missing
// or unreadable is left out (the model says what is missing) rather than failing the whole report, because
// a report is most wanted exactly when a run went wrong. Only a run that does not exist is an error.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { suiteOverridesIn } from '../config/pipeline.js';
import { loadSuiteWith } from '../config/suite-overrides.js';
import { UsageError } from '../core/errors.js';
import { iterationPaths } from '../loop/paths.js';
import { rolledBackAt } from '../state/events-read.js';
import { gateStandIn } from '../state/read-lenient.js';
import { iterations as iterationNumbers } from '../loop/next-step.js';
import { checkIdFlag, isSafeId } from '../config/safe-id.js';
import { stateLayout } from '../state/layout.js';
import { at, isObj, str, type IterationInputs, type Json, type NightDay, type ReportInputs, type SuiteInput } from './inputs.js';
import { chooseIteration } from './model.js';
import { spentIn } from '../evaluation/run-usage.js';

/** The run's damaged files (absolute paths), read as if absent while its inputs are loaded. */
let skip: ReadonlySet<string> = new Set();

function readJson(file: string): Json | undefined {
  if (skip.has(file)) return undefined;
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function readYaml(file: string): Json | undefined {
  try {
    const v = parseYaml(readFileSync(file, 'utf8'));
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function readJsonLines(file: string): Json[] {
  if (!existsSync(file) || skip.has(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        const v: unknown = JSON.parse(l);
        return isObj(v) ? [v] : [];
      } catch {
        return [];
      }
    });
}

/** The named run, or the newest run of any kind (run ids start with their UTC start time). */
export function resolveReportRun(stateDir: string, runId?: string): string {
  const runs = stateLayout.runsDir(stateDir);
  if (runId !== undefined) {
    checkIdFlag(runId, 'run');
    // A run folder that lost its run.json is still a run: its report names the damage (issue 31).
    const dir = stateLayout.runDir(stateDir, runId);
    if (!existsSync(stateLayout.runManifest(dir)) && !existsSync(stateLayout.events(dir))) throw new UsageError(`no run "${runId}" in ${stateDir}`);
    return runId;
  }
  const ids = existsSync(runs) ? readdirSync(runs).filter((id) => isSafeId(id) && (existsSync(stateLayout.runManifest(join(runs, id))) || existsSync(stateLayout.events(join(runs, id))))).sort() : [];
  const newest = ids[ids.length - 1];
  if (!newest) throw new UsageError(`no run in ${stateDir}; make one with "whet evaluate --standalone …" or "whet run"`);
  return newest;
}

function suiteOf(path: string, registeredSha: string | undefined, configPath: string | undefined): { suite?: SuiteInput; problem?: string } {
  try {
    // The run's pipeline.yaml may give the suite categories, negatives and splits (config/suite-overrides.ts).
    const s = loadSuiteWith({ suiteOverrides: suiteOverridesIn(configPath) }, path);
    const specHashes = s.tasks.flatMap((t) =>
      t.judges.flatMap((j) => {
        const spec = (j as { spec?: unknown }).spec;
        if (typeof spec !== 'string') return [];
        try {
          return [`sha256:${createHash('sha256').update(readFileSync(resolve(s.dir, spec))).digest('hex')}`];
        } catch {
          return [];
        }
      }),
    );
    const suite: SuiteInput = {
      path: s.path,
      sha256: s.contentHash,
      grid: s.grid,
      tasks: s.tasks.map((t) => ({ id: t.id, prompt: t.prompt, category: t.category, cell: t.cell, negative: t.negative, split: t.split, judges: t.judges.map((j) => j.type) })),
      specHashes,
    };
    const changed = registeredSha && registeredSha !== s.contentHash;
    return { suite, problem: changed ? `the suite file changed since this run (${registeredSha} then, ${s.contentHash} now): its shape below is the current file's` : undefined };
  } catch (err) {
    return { problem: `cannot read the suite ${path}: ${(err as Error).message.split('\n')[0]}` };
  }
}

/** Summed attempt durations per task, per results file of a folder (baseline.jsonl, <candidate>.jsonl). */
function durationsIn(dir: string): ReportInputs['durations'] {
  const out: ReportInputs['durations'] = {};
  const results = stateLayout.resultsDir(dir);
  if (!existsSync(results)) return out;
  for (const f of readdirSync(results).filter((n) => n.endsWith('.jsonl'))) {
    const per: Record<string, number> = {};
    for (const line of readJsonLines(join(results, f))) {
      const id = str(line.task_id);
      const ms = line.duration_ms;
      if (id && typeof ms === 'number') per[id] = (per[id] ?? 0) + ms;
    }
    out[f.slice(0, -'.jsonl'.length)] = per;
  }
  return out;
}

/**
 * Per results file, per task: each expectation of one attempt with its verdict and evidence (results lines'
 * `judges[].expectation`, skill-creator evals). A failed attempt is shown when there is one: it says why.
 */
function expectationsIn(dir: string): NonNullable<ReportInputs['expectations']> {
  const out: NonNullable<ReportInputs['expectations']> = {};
  const results = stateLayout.resultsDir(dir);
  if (!existsSync(results)) return out;
  for (const f of readdirSync(results).filter((n) => n.endsWith('.jsonl'))) {
    const per: Record<string, { expectation: string; passed: boolean; evidence: string }[]> = {};
    const failedSeen = new Set<string>();
    for (const line of readJsonLines(join(results, f))) {
      const id = str(line.task_id);
      if (!id || failedSeen.has(id) || !Array.isArray(line.judges)) continue;
      const named = line.judges.flatMap((j) => (isObj(j) && typeof j.expectation === 'string' ? [{ expectation: j.expectation, passed: j.passed === true, evidence: str(j.reason) ?? '' }] : []));
      if (!named.length) continue;
      per[id] = named;
      if (line.status === 'fail') failedSeen.add(id);
    }
    if (Object.keys(per).length) out[f.slice(0, -'.jsonl'.length)] = per;
  }
  return out;
}

function iterationInputs(runDir: string, n: number): IterationInputs {
  const p = iterationPaths(runDir, n);
  const it: IterationInputs = { n };
  for (const k of ['baseline', 'candidates', 'ranking', 'evaluation', 'gate', 'learning'] as const) {
    const v = readJson(p[k]);
    if (v) it[k] = v;
  }
  // A damaged gate.json over an applied keep: the report says the keep, as status does.
  const standIn = it.gate ? undefined : gateStandIn(runDir, n, p.gate, skip.has(p.gate));
  if (standIn) it.gate = standIn;
  const pc = readYaml(p.proposedCases);
  if (pc) it.proposedCases = pc;
  return it;
}

function calibrationsIn(stateDir: string): Json[] {
  const dir = join(stateDir, 'calibrations');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f): Json[] => {
      const v = readJson(join(dir, f));
      return v ? [v] : [];
    });
}

/** Every nightly day file, parsed; unreadable ones are left out like any other report input. */
export function nightDays(stateDir: string): NightDay[] {
  const dir = join(stateDir, 'nightly');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^\d{4}-\d{2}-\d{2}(-\d+)?\.json$/.test(f))
    .flatMap((file) => {
      const json = readJson(join(dir, file));
      return json ? [{ file, json }] : [];
    });
}

/**
 * Everything a report of the run is built from. `damaged` (verify-run.ts) names files read as if absent:
 * a report marked as made of a damaged run shows none of their values.
 */
export function loadReportInputs(stateDir: string, runId: string, iteration?: number, damaged?: { paths: ReadonlySet<string>; problems: NonNullable<ReportInputs['damaged']> }): ReportInputs {
  skip = damaged?.paths ?? new Set();
  try {
    return { ...loadInputs(stateDir, runId, iteration), ...(damaged?.problems.length ? { damaged: damaged.problems } : {}) };
  } finally {
    skip = new Set();
  }
}

function loadInputs(stateDir: string, runId: string, iteration?: number): ReportInputs {
  const runDir = stateLayout.runDir(stateDir, runId);
  const manifest = readJson(stateLayout.runManifest(runDir));
  const evaluation = readJson(join(runDir, 'evaluation.json'));
  const iterations = iterationNumbers(runDir).map((n) => iterationInputs(runDir, n));
  if (iteration !== undefined && !iterations.some((i) => i.n === iteration)) {
    throw new UsageError(`run ${runId} has no iteration ${iteration}${iterations.length ? ` (it has ${iterations.map((i) => i.n).join(', ')})` : ''}`);
  }
  const chosen = evaluation ? undefined : chooseIteration(iterations, iteration);
  const suitePath = str(at(manifest, 'suite', 'path')) ?? str(evaluation?.task_suite) ?? str(chosen?.evaluation?.task_suite);
  const { suite, problem } = suitePath ? suiteOf(suitePath, str(at(manifest, 'suite', 'sha256')), str(at(manifest, 'config', 'path'))) : { suite: undefined, problem: 'the run names no suite' };
  return {
    runId,
    manifest,
    evaluation,
    iterations,
    iteration,
    suite,
    suiteProblem: problem,
    rolledBackAt: rolledBackAt(runDir),
    calibrations: calibrationsIn(stateDir),
    history: readJsonLines(join(stateDir, 'nightly', 'history.jsonl')),
    nights: nightDays(stateDir),
    durations: evaluation ? durationsIn(runDir) : chosen ? durationsIn(iterationPaths(runDir, chosen.n).dir) : {},
    expectations: evaluation ? expectationsIn(runDir) : chosen ? expectationsIn(iterationPaths(runDir, chosen.n).dir) : {},
    spent: spentIn(runDir, manifest),
  };
}
