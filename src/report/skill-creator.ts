// `whet report --format skill-creator -o DIR`: a run written where skill-creator users look — DIR/
// benchmark.json and DIR/<eval>/<configuration>/run-<n>/grading.json, the layout and field names of
// skill-creator's references/schemas.md, so its viewer renders a whetstone evaluation. A standalone run
// is `with_skill`; a candidate run is the candidate as `with_skill` and the current skill (the baseline)
// as `without_skill`, which the viewer's two-way comparison needs — `whetstone.configurations` and a note
// say what each really is. Wilson intervals and the paired McNemar test go under `whetstone` keys.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { suiteOverridesIn } from '../config/pipeline.js';
import { loadSuiteWith } from '../config/suite-overrides.js';
import type { Task } from '../config/suite-schema.js';
import { UsageError } from '../core/errors.js';
import { iterationPaths } from '../loop/paths.js';
import { writeJsonAtomically } from '../core/atomic.js';
import { readResults, type ResultLine } from '../state/results-log.js';
import { stateLayout } from '../state/layout.js';
import { wilson } from '../stats/index.js';
import { at, num, obj, str, type Json } from './inputs.js';
import { loadReportInputs, resolveReportRun } from './load.js';
import { chooseIteration } from './model.js';
import { triggerLine, triggerRowsOf } from './model-trigger.js';
import { runOf, type Configuration, type ScGrading, type ScRun } from './skill-creator-runs.js';
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
  gradings: { path: string; grading: ScGrading }[];
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
  const candidate = str(ev.candidate_id);
  const variants: [Configuration, string, string][] = candidate
    ? [
        ['with_skill', candidate, `candidate ${candidate}`],
        ['without_skill', 'baseline', 'baseline: the current SKILL.md (not a run without any skill)'],
      ]
    : [['with_skill', 'baseline', 'the skill as it is']];
  if (candidate) notes.push('whetstone: "with_skill" is the candidate and "without_skill" the current skill (the baseline), not a run without any skill');

  const runs: ScRun[] = [];
  const gradings: SkillCreatorReport['gradings'] = [];
  const summary: SkillCreatorReport['benchmark']['run_summary'] = { delta: {} };
  const order = [...tasks.keys()];
  for (const [configuration, variant] of variants) {
    const file = stateLayout.resultsFile(dir, variant);
    if (!existsSync(file)) {
      notes.push(`whetstone: ${configuration} (${variant}) has no attempts in this run — it came from the baseline cache; evaluate with --force for its runs`);
      continue;
    }
    const lines = (await linesOf(file)).sort((a, b) => pos(order, a.task_id) - pos(order, b.task_id) || a.attempt - b.attempt);
    const mine = lines.map((l) => runOf(l, tasks.get(l.task_id), configuration, variant, pos(order, l.task_id)));
    for (const { run, grading } of mine) {
      runs.push(run);
      gradings.push({ path: join(run.whetstone.task_id, configuration, `run-${run.run_number}`, 'grading.json'), grading });
    }
    summary[configuration] = configSummary(mine.map((m) => m.run));
  }
  const w = summary.with_skill;
  const wo = summary.without_skill;
  if (w && wo) {
    summary.delta = {
      pass_rate: deltaText(w.pass_rate.mean - wo.pass_rate.mean, 2),
      time_seconds: deltaText(w.time_seconds.mean - wo.time_seconds.mean, 1),
      tokens: deltaText(w.tokens.mean - wo.tokens.mean, 0),
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
        paired: obj(at(ev, 'evaluation', 'paired')) ?? null,
        ...(trigger.length ? { trigger } : {}),
      },
    },
    gradings,
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

/** Writes benchmark.json and every grading.json under `out`; returns the files written. */
export async function writeSkillCreatorReport(out: string, r: SkillCreatorReport): Promise<string[]> {
  if (existsSync(out) && readdirSync(out).some((f) => f !== 'benchmark.json' && !r.gradings.some((g) => g.path.startsWith(`${f}/`)))) {
    throw new UsageError(`${out} holds other files; give -o an empty or new folder (or the one an earlier skill-creator report wrote)`);
  }
  const written: string[] = [];
  for (const g of r.gradings) {
    const file = join(out, g.path);
    await writeJsonAtomically(file, g.grading);
    written.push(file);
  }
  const bench = join(out, 'benchmark.json');
  await writeJsonAtomically(bench, r.benchmark);
  written.push(bench);
  return written;
}
