// Runs one variant of a skill (the baseline, or a candidate) over a suite: every task × attempt not
// already judged in its results file goes to the engine, then to the task's judges, then is appended to
// the results file. Engine failures become `error` lines, which a later run retries; they are never
// folded into fail.
import type { Suite, Task } from '../config/suite-schema.js';
import type { Engine } from '../engines/types.js';
import type { SkillInput } from '../skill/read.js';
import { combineJudgeResults, runJudge } from '../judges/index.js';
import type { JudgeResult } from '../judges/types.js';
import { attemptKey, ResultsLog, type ResultLine } from '../state/results-log.js';
import { addUsage, foldResult, newTally, newUsage, type TaskTally, type UsageTotals } from './aggregate.js';
import { forEachConcurrent } from './pool.js';
import type { Budget } from './budget.js';
import { addLineUsage, emptyUsage, type RunUsage } from './run-usage.js';
import { log as logger } from '../core/log.js';
import { EngineError } from '../core/errors.js';
import { StringPool } from '../core/strings.js';
import { metricSet } from '../intents/metrics.js';
import { scoreCase } from '../intents/score-case.js';
import { scoreToolCallOutput } from '../judges/tool-call.js';
import { decideIntent } from './intent-decide.js';
import { baseLine, cpuMsSince, resumedAttempts, taskOfKey, triggerJudge } from './attempt-line.js';

export { resumedAttempts } from './attempt-line.js';
import { SpendGuard } from './spend-guard.js';
import { addUsage as sumUsage, concurrencyUsed, meterEngine, refusedByBudget, stoppedByRateLimit, type ConcurrencyUsed, type MeteredEngine } from './metered.js';

export interface VariantRunInput {
  variant: string;
  suite: Suite;
  /** The skill text the engine is given; undefined runs the tasks with no skill. */
  skill?: SkillInput;
  engine: Engine;
  judgeEngine?: Engine;
  passK: number;
  concurrency: number;
  resultsFile: string;
  signal?: AbortSignal;
  now?: () => Date;
  /**
   * Each attempt as its line is appended, with `persist`, which writes every line appended so far: call it
   * before telling anyone the attempt is judged (src/state/results-log.ts). A progress bar calls it only
   * when it draws, so a terminal run makes a write per redraw, not one per line.
   */
  onAttempt?: (line: ResultLine, persist: () => void) => void;
  /** Shared with other variants running at the same time, so a global concurrency limit holds. */
  limiter?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The run's budget: no attempt starts once it is spent. */
  budget?: Budget;
  /** evaluate.max_error_share: once more tasks errored than it allows, the rest is not run (spend-guard.ts). */
  maxErrorShare?: number;
}

export interface VariantOutcome {
  variant: string;
  tallies: TaskTally[];
  /** Tasks run but never graded (an eval with nothing to judge it by); kept out of every rate. */
  unjudged?: TaskTally[];
  /** Calls made by this process (resumed attempts cost none). */
  engineCalls: number;
  judgeCalls: number;
  resumedAttempts: number;
  usage: UsageTotals;
  durationsMs: number[];
  /** True when the run stopped early (abort signal or budget) with attempts left. */
  interrupted: boolean;
  /** Why a budget stopped the run, when one did. */
  budgetExhausted?: string;
  /** Why a subscription rate limit stopped the run, when one did (resumable once it resets). */
  rateLimited?: string;
  /** Why the remaining calls were not made, with what to fix (spend-guard.ts); resumable after the fix. */
  stoppedEarly?: string;
  /** Wall time of this process's task phase (0 when nothing ran). */
  wallMs: number;
  /** CPU time (user + system) this process spent in its task phase: what each call costs beyond waiting. */
  cpuMs?: number;
  /** What ran at once (absent for a cached or merged outcome). */
  concurrency?: ConcurrencyUsed;
  /**
   * Everything the results log records as spent, every line of it (replaced error lines and resumed ones
   * included): what budgets and `whet status` count, summed as the lines are read and written so a
   * finished run can record it without reading its log again (absent for a cached or merged outcome).
   */
  spent?: RunUsage;
}

export async function runVariant(input: VariantRunInput): Promise<VariantOutcome> {
  const now = input.now ?? (() => new Date());
  const kOf = (task: Task) => task.passK ?? input.passK;
  const tallies = new Map<string, TaskTally>();
  for (const task of input.suite.tasks) tallies.set(task.id, newTally(task, kOf(task)));
  const usage = newUsage();
  const durationsMs: number[] = [];
  const strings = new StringPool();

  // Resume: the latest judged line per (task, attempt) stands; error lines are retried. A later line may
  // replace an earlier one, so only the attempt's facts are kept until the file is read, never its output.
  const spent: RunUsage = emptyUsage();
  const done = await resumedAttempts(input.resultsFile, tallies, spent);
  for (const [key, facts] of done) {
    foldResult(tallies.get(taskOfKey(key))!, facts, strings);
    addUsage(usage, facts.usage);
    if (facts.judge_usage) addUsage(usage, facts.judge_usage);
    durationsMs.push(facts.duration_ms);
  }

  const log = ResultsLog.open(input.resultsFile);
  const persist = () => log.flush();
  let engineCalls = 0;
  let judgeCalls = 0;
  let interrupted = false;
  let rateLimited: string | undefined;
  /** What to fix: an engine's endpoint cannot work as configured (src/engines/unusable.ts). */
  let unusable: string | undefined;
  const judgedOf = new Map<string, number>();
  for (const key of done.keys()) judgedOf.set(taskOfKey(key), (judgedOf.get(taskOfKey(key)) ?? 0) + 1);
  const guard = new SpendGuard(input.suite.tasks, kOf, input.maxErrorShare, (id) => judgedOf.get(id) ?? 0);

  const runAttempt = async (task: Task, attempt: number): Promise<void> => {
    if (input.signal?.aborted || unusable) {
      interrupted = true;
      return;
    }
    if (guard.stopped) return;
    if (input.budget && !input.budget.tryStart()) {
      interrupted = true;
      return;
    }
    // The attempt reserved its first call above (so a budget of N calls starts exactly N attempts); any
    // further call — a judge's, an intent retry — reserves its own, and every call holds an engine slot.
    const engine = meterEngine(input.engine, { budget: input.budget, prepaid: 1 });
    const judgeMeters: MeteredEngine[] = [];
    const meter = (e: Engine) => {
      const m = meterEngine(e, { budget: input.budget });
      judgeMeters.push(m);
      return m;
    };
    const judgeEngine = input.judgeEngine ? meter(input.judgeEngine) : undefined;
    // A tool_call task is answered through the runtime's decision path for this engine (intent-decide.ts).
    const caseId = task.judges.find((j) => j.type === 'tool_call')?.case_id;
    const intentCase = caseId !== undefined ? input.suite.intents?.cases.get(caseId) : undefined;
    const call = async () => {
      if (intentCase && input.suite.intents) {
        return decideIntent({ engine, intentCase, intents: input.suite.intents, skill: input.skill, timeoutMs: task.timeoutMs, signal: input.signal });
      }
      return engine.run({ kind: 'task', prompt: task.prompt, ...(task.system ? { system: task.system } : {}), skill: input.skill, taskId: task.id, timeoutMs: task.timeoutMs, ...(task.files ? { files: task.files } : {}) }, { signal: input.signal });
    };
    const res = await (input.limiter ? input.limiter(call) : call());
    engineCalls += Math.max(1, engine.calls());
    if (refusedByBudget(res)) {
      interrupted = true;
      return;
    }
    // An unusable endpoint: no result, nothing about the skill was measured; the run stops below with what to fix.
    unusable ??= res.error?.stop ?? engine.unusable();
    if (unusable) return void (interrupted = true);
    if (stoppedByRateLimit(res)) {
      // Not a result: the attempt is left for `whet resume` once the limit resets.
      interrupted = true;
      rateLimited ??= res.error?.message ?? 'rate limited';
      return;
    }
    let line: ResultLine;
    if (res.ok) guard.call('engine', undefined);
    if (!res.ok) {
      const error = res.error ?? { kind: 'exit', message: 'engine reported failure without a cause' };
      line = baseLine(task, attempt, res, now);
      line.status = 'error';
      line.error = error;
      line.reason = `engine ${error.kind}: ${error.message}`;
      logger.info({ variant: input.variant, task: task.id, attempt, error }, 'engine call failed');
      if (!input.signal?.aborted) guard.call('engine', `engine ${error.kind}: ${error.message}`);
    } else if (task.unjudged) {
      line = baseLine(task, attempt, res, now);
      line.status = 'unjudged';
      line.reason = 'unjudged: the eval gives no expectations and no expected_output to grade against';
    } else {
      const results: JudgeResult[] = [];
      for (const spec of task.judges) {
        const r = await runJudge(spec, { output: res.output, task, suiteDir: input.suite.dir, intents: input.suite.intents, judgeEngine, meter, timeoutMs: task.timeoutMs, signal: input.signal });
        results.push(r);
        if (!input.signal?.aborted) guard.call('judge', r.error);
      }
      if (task.shouldTrigger !== undefined) results.push(triggerJudge(task.shouldTrigger, res.skill_triggered));
      const combined = combineJudgeResults(results);
      line = baseLine(task, attempt, res, now);
      line.status = combined.error ? 'error' : combined.passed ? 'pass' : 'fail';
      line.score = combined.score;
      line.reason = combined.error ? `judge error: ${combined.error}` : combined.reason;
      // Each expectation is its own judgement: its text stays beside its verdict and evidence (the reason).
      line.judges = results.map((r, i) => {
        const expectation = task.expectations?.[i];
        return { type: r.type, passed: r.passed, score: r.score, reason: r.reason, ...(r.error ? { error: r.error } : {}), ...(expectation !== undefined ? { expectation } : {}) };
      });
      if (combined.error) line.error = { kind: 'judge', message: combined.error };
    }
    // A judge (or intent retry) stopped by a subscription limit leaves no result either: resume redoes the attempt.
    // A loop, not [engine, ...judgeMeters].map().find(): that array's element kind changed between attempts,
    // which threw away this function's optimised code once per run (a second ~25 ms TurboFan compile).
    let judgeStop = engine.rateLimited();
    for (const m of judgeMeters) judgeStop ??= m.rateLimited();
    // A judge's endpoint found unusable stops the run the same way (a loop, as for judgeStop).
    for (const m of judgeMeters) unusable ??= m.unusable();
    if (unusable) return void (interrupted = true);
    if (judgeStop) {
      interrupted = true;
      rateLimited ??= judgeStop;
      return;
    }
    // An intent retry is a second task call; the mock's intent path makes none but the attempt still counts one.
    const judged = judgeMeters.reduce((n, m) => n + m.calls(), 0);
    line.engine_calls = Math.max(1, engine.calls()) + judged;
    if (judged) line.judge_calls = judged;
    if (judged) line.judge_usage = judgeMeters.reduce((u, m) => sumUsage(u, m.usage()), {});
    judgeCalls += judged;
    if (intentCase && input.suite.intents) {
      // The attempt's share of the intent metrics; an engine failure counts as an error case, never a wrong decision.
      const scored = res.ok ? scoreToolCallOutput(res.output, intentCase.id, input.suite.intents) : undefined;
      const score = scored && 'score' in scored ? scored.score : scoreCase(intentCase, undefined, input.suite.intents.catalog.validators);
      line.intent = metricSet([score]);
    }
    if (res.skill_triggered !== undefined) line.skill_triggered = res.skill_triggered;
    if (res.tool_calls?.length) line.tool_calls = res.tool_calls.map((c) => c.name);
    if (res.failed_attempts?.length) line.failed_attempts = res.failed_attempts;
    if (input.signal?.aborted && line.status === 'error') {
      // Killed by our own abort: not a result, so leave no line and let the resume run it.
      interrupted = true;
      return;
    }
    // A judge refused by the budget leaves an error line: it records what the attempt spent, and the
    // resume redoes it. The run stops here either way.
    if (input.budget?.exhausted) interrupted = true;
    // Not `interrupted`: the attempts left unrun are errors of an `error` verdict, written with its reason,
    // and the run stays resumable (`incomplete`) like any run with errors.
    if (line.status === 'error') guard.attemptErrored(task, res.ok ? 'judge' : 'engine', line.reason);
    log.append(line);
    addLineUsage(spent, line);
    foldResult(tallies.get(task.id)!, line, strings);
    addUsage(usage, line.usage);
    if (line.judge_usage) addUsage(usage, line.judge_usage);
    durationsMs.push(line.duration_ms);
    input.onAttempt?.(line, persist);
  };

  function* pending(): Generator<[Task, number]> {
    for (const task of input.suite.tasks) {
      const k = kOf(task);
      for (let a = 0; a < k; a++) if (!done.has(attemptKey(task.id, a))) yield [task, a];
    }
  }
  // What an engine loads for its first call (an HTTP engine's node:https and TLS) is setup, not a call's time.
  await Promise.all([input.engine.prepare?.(), input.judgeEngine?.prepare?.()]);
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  try {
    await forEachConcurrent(pending(), input.concurrency, ([task, a]) => runAttempt(task, a));
  } finally {
    log.close();
  }
  if (unusable) throw new EngineError(`${unusable}; the run stopped at the first such answer (nothing was recorded for it)`);
  const all = [...tallies.values()];
  const unjudged = all.filter((t) => t.unjudged);
  return {
    variant: input.variant,
    tallies: unjudged.length ? all.filter((t) => !t.unjudged) : all,
    ...(unjudged.length ? { unjudged } : {}),
    engineCalls,
    judgeCalls,
    resumedAttempts: done.size,
    spent,
    usage,
    durationsMs,
    interrupted,
    ...(input.budget?.exhausted ? { budgetExhausted: input.budget.exhausted } : {}),
    ...(rateLimited ? { rateLimited } : {}),
    ...(guard.stopped ? { stoppedEarly: guard.stopped } : {}),
    wallMs: engineCalls === 0 ? 0 : Math.round(performance.now() - started),
    cpuMs: engineCalls === 0 ? 0 : cpuMsSince(cpuStart),
    concurrency: concurrencyUsed(input.concurrency, [{ engine: input.engine, as: 'engine' }, ...(input.judgeEngine ? [{ engine: input.judgeEngine, as: 'judge_engine' }] : [])]),
  };
}
