// `whet report --format skill-creator -o DIR`: a run written as a skill-creator workspace, the layout its
// own programs read (eval-viewer/generate_review.py finds a run as a folder holding `outputs/`, its prompt
// in the eval's eval_metadata.json; scripts/aggregate_benchmark.py reads `eval-*/<configuration>/run-*/
// grading.json`): DIR/eval-<id>/eval_metadata.json, DIR/eval-<id>/<configuration>/run-<n>/{outputs/,
// grading.json,timing.json,eval_metadata.json}, and DIR/benchmark.json, field names as references/schemas.md spells them.
// A standalone run is `with_skill`; a candidate against the current skill is `new_skill` against
// `old_skill` (skill-creator's names when improving a skill); a run measured without the skill too is
// `with_skill` against `without_skill`. Wilson intervals and the paired test go under `whetstone` keys.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { suiteOverridesIn } from '../config/pipeline.js';
import { loadSuiteWith } from '../config/suite-overrides.js';
import type { Task } from '../config/suite-schema.js';
import { UsageError } from '../core/errors.js';
import { iterationPaths } from '../loop/paths.js';
import { writeFileAtomically, writeJsonAtomically } from '../core/atomic.js';
import { evalDirs, evalNameOf, NO_SKILL_VARIANT, runPath, type EvalDir } from '../config/skill-creator-dirs.js';
import { readResults, type ResultLine } from '../state/results-log.js';
import { stateLayout } from '../state/layout.js';
import { wilson } from '../stats/index.js';
import { at, num, obj, str, type Json } from './inputs.js';
import { baselineCacheKey, cachedResultsLog } from './cached-results.js';
import { readLenient } from '../state/read-lenient.js';
import { loadReportInputs, resolveReportRun } from './load.js';
import { chooseIteration } from './model.js';
import { triggerLine, triggerRowsOf } from './model-trigger.js';
import { assertionsOf, runOf, type Configuration, type ScRun, type ScRunFiles } from './skill-creator-runs.js';
import { round4 } from '../core/numbers.js';

type Stats = { mean: number; stddev: number; min: number; max: number };
type ConfigSummary = { pass_rate: Stats; time_seconds: Stats; tokens: Stats; whetstone: { runs: number; tasks_passed: number; tasks_judged: number; task_pass_rate: number | null; task_pass_rate_ci95: { low: number; high: number } | null } };

export interface SkillCreatorReport {
  benchmark: {
    metadata: { skill_name: string; skill_path: string; executor_model: string; analyzer_model: string | null; timestamp: string; evals_run: number[]; runs_per_configuration: number };
    runs: ScRun[];
    run_summary: Partial<Record<Configuration, ConfigSummary>> & { delta: Partial<Record<'pass_rate' | 'time_seconds' | 'tokens', string>> };
    notes: string[];
    whetstone: Json;
  };
  /** eval-<id>/eval_metadata.json of each eval with a run. */
  evals: { dir: string; metadata: EvalMetadata }[];
  /** Each run's folder (relative, `/`-separated) and its files. */
  runDirs: ({ path: string } & ScRunFiles)[];
}

/** skill-creator/SKILL.md "Step 1": the eval's id, name, prompt and assertions. */
export interface EvalMetadata {
  eval_id: number;
  eval_name: string;
  prompt: string;
  assertions: string[];
  whetstone: { task_id: string; system?: string; files?: string[]; expected_output?: string };
}


/** mean, sample standard deviation (n − 1; 0 for one value), min and max. */
export function statsOf(values: number[]): Stats {
  if (values.length === 0) return { mean: 0, stddev: 0, min: 0, max: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.length > 1 ? values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1) : 0;
  return { mean: round4(mean), stddev: round4(Math.sqrt(variance)), min: round4(Math.min(...values)), max: round4(Math.max(...values)) };
}

/** skill-creator's delta strings: "+0.50", "+13.0", "+1700". */
export function deltaText(d: number, decimals: number): string {
  const v = decimals === 0 ? Math.round(d).toString() : d.toFixed(decimals);
  return d >= 0 && !v.startsWith('-') ? `+${v}` : v;
}

async function linesOf(file: string): Promise<ResultLine[]> {
  const latest = new Map<string, ResultLine>();
  await readResults(file, (l) => latest.set(`${l.task_id}#${l.attempt}`, l));
  return [...latest.values()];
}

function modelOf(engine: unknown): string | null {
  if (!engine) return null;
  const model = str(at(engine, 'identity', 'model'));
  const type = str(at(engine, 'type')) ?? 'unknown';
  return model ? `${type}:${model}` : type;
}

export async function skillCreatorReport(stateDir: string, runId?: string, iteration?: number): Promise<SkillCreatorReport> {
  const id = resolveReportRun(stateDir, runId);
  const inputs = loadReportInputs(stateDir, id, iteration);
  const chosen = inputs.evaluation ? undefined : chooseIteration(inputs.iterations, iteration);
  const ev = inputs.evaluation ?? chosen?.evaluation;
  if (!ev) throw new UsageError(`run ${id} has no evaluation yet: nothing for skill-creator's viewer to show`);
  const runDir = stateLayout.runDir(stateDir, id);
  const dir = inputs.evaluation ? runDir : iterationPaths(runDir, chosen!.n).dir;
  const suitePath = str(at(inputs.manifest, 'suite', 'path')) ?? str(ev.task_suite);
  let tasks = new Map<string, Task>();
  let skillName = str(ev.skill_id) ?? 'skill';
  const notes: string[] = [];
  try {
    const suite = suitePath ? loadSuiteWith({ suiteOverrides: suiteOverridesIn(str(at(inputs.manifest, 'config', 'path'))) }, suitePath) : undefined;
    if (suite) {
      tasks = new Map(suite.tasks.map((t) => [t.id, t]));
      // A trigger set names no skill: the evaluation's skill_id is the measured skill's (config/trigger-engine.ts).
      if (suite.format !== 'skill-creator-trigger') skillName = suite.skillId;
    }
  } catch (err) {
    notes.push(`whetstone: the suite could not be read (${(err as Error).message.split('\n')[0]}); eval ids are positions and expectations are named by judge type`);
  }
  const variants = variantsOf(ev);
  const candidate = str(ev.candidate_id);
  if (candidate) notes.push(`whetstone: "new_skill" is candidate ${candidate} and "old_skill" the current SKILL.md (the baseline)`);

  const runs: ScRun[] = [];
  const runDirs: SkillCreatorReport['runDirs'] = [];
  const summary: SkillCreatorReport['benchmark']['run_summary'] = { delta: {} };
  const order = [...tasks.keys()];
  const measured: [Configuration, string, ResultLine[]][] = [];
  for (const [configuration, variant] of variants) {
    let file = stateLayout.resultsFile(dir, variant);
    const recorded = readLenient(join(dir, 'baseline.json'));
    const key = !existsSync(file) && variant === 'baseline' ? baselineCacheKey(ev, recorded) : undefined;
    const rows = at(recorded, 'task_results') ?? at(ev, 'task_results');
    const source = key && Array.isArray(rows) ? await cachedResultsLog(stateDir, key, rows as Json[]) : undefined;
    if (source) {
      file = source.file;
      notes.push(`whetstone: ${configuration}'s runs are those of run ${source.run}, which measured the baseline this run took from the cache`);
    } else if (!existsSync(file)) {
      notes.push(`whetstone: ${configuration} (${variant}) has no attempts in this run — it came from the baseline cache, and no run left holds them; evaluate with --force for its runs`);
      continue;
    }
    const lines = (await linesOf(file)).sort((a, b) => pos(order, a.task_id) - pos(order, b.task_id) || a.attempt - b.attempt);
    measured.push([configuration, variant, lines]);
  }
  const dirs = evalDirs([...tasks.values()], [...new Set(measured.flatMap(([, , lines]) => lines.map((l) => l.task_id)))].filter((id) => !tasks.has(id)));
  const used = new Map<string, EvalDir>();
  for (const [configuration, variant, lines] of measured) {
    const mine = lines.map((l) => {
      const d = dirs.get(l.task_id)!;
      used.set(d.dir, d);
      const files = runOf(l, tasks.get(l.task_id), configuration, variant, d.evalId);
      return { path: runPath(d.dir, configuration, l.attempt).path, ...files };
    });
    for (const m of mine) {
      runs.push(m.run);
      runDirs.push(m);
    }
    summary[configuration] = configSummary(mine.map((m) => m.run));
  }
  const evals = [...used.values()].map((d) => ({ dir: d.dir, metadata: metadataOf(d, tasks.get(d.taskId)) }));
  const [first, second] = variants.map(([c]) => summary[c]);
  if (first && second) {
    summary.delta = {
      pass_rate: deltaText(first.pass_rate.mean - second.pass_rate.mean, 2),
      time_seconds: deltaText(first.time_seconds.mean - second.time_seconds.mean, 1),
      tokens: deltaText(first.tokens.mean - second.tokens.mean, 0),
    };
  }
  notes.push(...expectationNotes(runs));
  const unjudged = [...new Set(runs.filter((r) => r.whetstone.status === 'unjudged').map((r) => r.whetstone.task_id))];
  if (unjudged.length) notes.push(`whetstone: ${unjudged.length} eval(s) unjudged (no expectations, no expected_output), left out of run_summary: ${unjudged.join(', ')}`);
  // A trigger set's four metrics, for this run and each iteration of the description loop (model-trigger.ts).
  const trigger = triggerRowsOf(ev, inputs.iterations, str(ev.mode) === 'standalone');
  notes.push(...trigger.map((r) => `whetstone: ${triggerLine(r)}`));
  const evalsRun = [...new Set(runs.map((r) => r.eval_id))];
  return {
    benchmark: {
      metadata: {
        skill_name: skillName,
        skill_path: str(ev.skill_path) ?? str(at(ev, 'target', 'path')) ?? str(at(inputs.manifest, 'target', 'path')) ?? '',
        executor_model: modelOf(ev.engine) ?? 'unknown',
        analyzer_model: modelOf(ev.judge_engine),
        timestamp: str(ev.created_at) ?? new Date(0).toISOString(),
        evals_run: evalsRun,
        runs_per_configuration: num(ev.pass_k) ?? 1,
      },
      runs,
      run_summary: summary,
      notes,
      whetstone: {
        run_id: id,
        mode: str(ev.mode) ?? null,
        verdict: str(ev.verdict) ?? null,
        configurations: Object.fromEntries(variants.map(([c, , what]) => [c, what])),
        not_kept: ['files the agent produced (whetstone keeps the answer only): outputs/ holds answer.md'],
        paired: obj(at(ev, 'evaluation', 'paired')) ?? obj(at(ev, 'without_skill', 'paired')) ?? null,
        ...(obj(ev.without_skill) ? { skill_effect: obj(at(ev, 'without_skill', 'effect')) ?? null } : {}),
        ...(trigger.length ? { trigger } : {}),
      },
    },
    evals,
    runDirs,
  };
}

/**
 * Which results are which configuration, in the order skill-creator's aggregator takes its delta (the
 * first minus the second; it sorts the folders by name: `new_skill` before `old_skill`, `with_skill`
 * before `without_skill`).
 */
function variantsOf(ev: Json & Record<string, unknown>): [Configuration, string, string][] {
  const candidate = str(ev.candidate_id);
  if (candidate) {
    return [
      ['new_skill', candidate, `candidate ${candidate}`],
      ['old_skill', 'baseline', 'the current SKILL.md (the baseline)'],
    ];
  }
  if (obj(ev.without_skill)) {
    return [
      ['with_skill', 'baseline', 'the skill as it is'],
      ['without_skill', NO_SKILL_VARIANT, 'the same suite with no skill at all (whet evaluate --without-skill)'],
    ];
  }
  return [['with_skill', 'baseline', 'the skill as it is']];
}

function metadataOf(d: EvalDir, task: Task | undefined): EvalMetadata {
  return {
    eval_id: d.evalId,
    eval_name: evalNameOf(task, d.taskId),
    prompt: task?.prompt ?? `(whetstone: task ${d.taskId} is no longer in the suite; its prompt is not known)`,
    assertions: assertionsOf(task),
    whetstone: {
      task_id: d.taskId,
      ...(task?.system ? { system: task.system } : {}),
      ...(task?.files?.length ? { files: task.files.map((f) => f.path) } : {}),
    },
  };
}

const pos = (order: string[], id: string) => {
  const i = order.indexOf(id);
  return i < 0 ? order.length : i;
};

/** Judged runs only (errors and unjudged evals would read as 0%); task-level rates with Wilson intervals beside. */
function configSummary(runs: ScRun[]): ConfigSummary {
  const judged = runs.filter((r) => r.whetstone.status === 'pass' || r.whetstone.status === 'fail');
  const byTask = new Map<string, boolean>();
  for (const r of judged) byTask.set(r.whetstone.task_id, (byTask.get(r.whetstone.task_id) ?? false) || r.whetstone.status === 'pass');
  const passedTasks = [...byTask.values()].filter(Boolean).length;
  const ci = wilson(passedTasks, byTask.size);
  return {
    pass_rate: statsOf(judged.map((r) => r.result.pass_rate)),
    time_seconds: statsOf(judged.map((r) => r.result.time_seconds)),
    tokens: statsOf(judged.map((r) => r.result.tokens)),
    whetstone: { runs: judged.length, tasks_passed: passedTasks, tasks_judged: byTask.size, task_pass_rate: byTask.size ? round4(passedTasks / byTask.size) : null, task_pass_rate_ci95: byTask.size ? { low: round4(ci.low), high: round4(ci.high) } : null },
  };
}

/** The expectations that fail most, per configuration: what skill-creator's analyst pass looks for first. */
function expectationNotes(runs: ScRun[]): string[] {
  const tally = new Map<string, { failed: number; total: number }>();
  for (const r of runs) {
    for (const e of r.expectations) {
      const key = `${r.configuration}\0${e.text}`;
      const t = tally.get(key) ?? { failed: 0, total: 0 };
      t.total++;
      if (!e.passed) t.failed++;
      tally.set(key, t);
    }
  }
  return [...tally.entries()]
    .filter(([, t]) => t.failed > 0)
    .sort((a, b) => b[1].failed / b[1].total - a[1].failed / a[1].total || b[1].failed - a[1].failed)
    .slice(0, 5)
    .map(([key, t]) => {
      const [configuration, text] = key.split('\0');
      return `whetstone: ${configuration} fails "${text}" in ${t.failed}/${t.total} runs`;
    });
}

/** What a workspace written earlier may hold besides our files: the viewer's feedback and the aggregator's outputs. */
const THEIRS = new Set(['feedback.json', 'benchmark.md']);

/** Writes the workspace under `out`; returns the files written. */
export async function writeSkillCreatorReport(out: string, r: SkillCreatorReport): Promise<string[]> {
  const ours = new Set(['benchmark.json', ...r.evals.map((e) => e.dir)]);
  const stranger = existsSync(out) ? readdirSync(out).find((f) => !ours.has(f) && !THEIRS.has(f)) : undefined;
  if (stranger !== undefined) {
    throw new UsageError(`${out} holds ${stranger}, which this report does not write; give -o an empty or new folder (or the one an earlier skill-creator report of this run wrote)`);
  }
  // An eval folder written before may hold runs this report no longer has (fewer attempts): start it afresh.
  for (const e of r.evals) rmSync(join(out, e.dir), { recursive: true, force: true });
  const written: string[] = [];
  const put = async (file: string, write: (f: string) => Promise<void>) => {
    await write(file);
    written.push(file);
  };
  for (const e of r.evals) await put(join(out, e.dir, 'eval_metadata.json'), (f) => writeJsonAtomically(f, e.metadata));
  const metadata = new Map(r.evals.map((e) => [e.dir, e.metadata]));
  for (const d of r.runDirs) {
    const dir = join(out, ...d.path.split('/'));
    // The viewer looks for the prompt in the run's folder or its parent (the configuration's), not the
    // eval's; the aggregator in the eval's: both get it.
    await put(join(dir, 'eval_metadata.json'), (f) => writeJsonAtomically(f, metadata.get(d.path.split('/')[0]!)));
    for (const o of d.outputs) await put(join(dir, 'outputs', o.name), (f) => writeFileAtomically(f, o.text));
    if (d.grading) await put(join(dir, 'grading.json'), (f) => writeJsonAtomically(f, d.grading));
    await put(join(dir, 'timing.json'), (f) => writeJsonAtomically(f, d.timing));
  }
  await put(join(out, 'benchmark.json'), (f) => writeJsonAtomically(f, r.benchmark));
  return written;
}
