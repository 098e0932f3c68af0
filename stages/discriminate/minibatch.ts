// The optional minibatch pre-check (cfg.loop.minibatch > 0): before a full evaluation, the selected
// candidate and the baseline answer the same few TRAIN tasks; a candidate that passes fewer than the
// baseline is rejected and the next one is tried. Train only: held-out tasks are the gate's evidence and
// must stay unseen until then. Results go to iter-NNN/minibatch/results/<variant>.jsonl and are resumed
// like any results file.
import { canonicalJson, sha256 } from '../../src/state/artifact-io.js';
import type { Task } from '../../src/config/suite-schema.js';
import { taskStatus, type TaskTally } from '../../src/evaluation/aggregate.js';
import { runVariant } from '../../src/evaluation/run-variant.js';
import type { LoopContext } from '../../src/loop/context.js';
import type { LoadedSkill } from '../../src/skill/read.js';
import { evaluateContext } from '../../src/loop/evaluate-context.js';
import { prepareResultsFile } from '../../src/state/runs.js';
import { prepare, type Prepared } from '../../src/measure/setup.js';

/**
 * The tasks to pre-check: the train tasks the candidate says it answers first (did it fix them?), then
 * the other train tasks in suite order (did it break them?), `n` in all.
 */
export function minibatchTasks(tasks: readonly Task[], answered: readonly string[], n: number): Task[] {
  const train = tasks.filter((t) => t.split === 'train');
  const want = new Set(answered);
  return [...train.filter((t) => want.has(t.id)), ...train.filter((t) => !want.has(t.id))].slice(0, n);
}

export interface MinibatchResult {
  tasks: string[];
  candidate_passed: number;
  baseline_passed: number;
  /** Tasks left out of the comparison because either side could not be judged (engine or judge error). */
  excluded: string[];
  passed: boolean;
}

/** Compares passes on the tasks judged on both sides; the candidate must pass at least as many. */
export function minibatchVerdict(candidate: readonly TaskTally[], baseline: readonly TaskTally[]): MinibatchResult {
  const base = new Map(baseline.map((t) => [t.task_id, t]));
  const out: MinibatchResult = { tasks: [], candidate_passed: 0, baseline_passed: 0, excluded: [], passed: true };
  for (const c of candidate) {
    const b = base.get(c.task_id);
    if (!b) continue;
    const cs = taskStatus(c);
    const bs = taskStatus(b);
    if (cs === 'error' || bs === 'error') {
      out.excluded.push(c.task_id);
      continue;
    }
    out.tasks.push(c.task_id);
    if (cs === 'pass') out.candidate_passed++;
    if (bs === 'pass') out.baseline_passed++;
  }
  out.passed = out.candidate_passed >= out.baseline_passed;
  return out;
}

/** The evaluate stage's own setup (suite with splits, engines), so the pre-check runs tasks exactly as it does. */
export function prepareMinibatch(ctx: LoopContext): Promise<Prepared> {
  return prepare(evaluateContext(ctx));
}

export interface VariantRun {
  tallies: TaskTally[];
  engineCalls: number;
  costUsd: number;
  interrupted: boolean;
}

/** Runs one variant on the chosen tasks, into `dir`/results/<variant>.jsonl. */
export async function runOnTasks(ctx: LoopContext, p: Prepared, a: { variant: string; skill: LoadedSkill; tasks: Task[]; dir: string }): Promise<VariantRun> {
  // Results measured on other content (a regenerated candidate with the same id) are superseded, not reused.
  const key = sha256(canonicalJson({ skill: a.skill.contentHash, engine: p.engine.identity(), judge: p.judgeEngine?.identity() ?? null, pass_k: p.passK }));
  const resultsFile = await prepareResultsFile(a.dir, a.variant, key, ctx.now());
  const o = await runVariant({
    variant: a.variant,
    suite: { ...p.suite, tasks: a.tasks },
    skill: a.skill,
    engine: p.engine,
    judgeEngine: p.judgeEngine,
    passK: p.passK,
    concurrency: p.concurrency,
    resultsFile,
    signal: ctx.signal,
    now: ctx.now,
    budget: ctx.budget,
  });
  return { tallies: o.tallies, engineCalls: o.engineCalls, costUsd: o.usage.cost_usd, interrupted: o.interrupted };
}
