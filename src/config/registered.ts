// Settings outside `thresholds:` that still decide verdicts: which candidates reach evaluation, when a
// baseline or a standalone evaluation fails, which tasks are held out, when the loop stops. They are
// registered in run.json beside the thresholds for the same reason (docs/method.md: Thresholds fixed before results): a value changed
// after results were seen — eval_threshold lowered until a rejected candidate passes, a holdout_ratio
// that moves the candidate's own train task into the held-out set, a minibatch or an LLM judge switched
// on to screen out a candidate — would decide by hindsight.
import { z } from 'zod';
import { canonicalJson, sha256 } from '../core/hash.js';
import type { PipelineConfig } from './pipeline.js';
import type { Task } from './suite-schema.js';
import { loadSuiteWith } from './suite-overrides.js';
import { assignSplits, splitsOf } from './split.js';

export type Split = 'train' | 'holdout';

/**
 * The settings as run.json keeps them (src/loop/manifest.ts reads them with this schema too, so none it
 * registers can be dropped on the way). One absent from a run registered before it was is never compared.
 */
export const registeredSettingsSchema = z.object({
  eval_threshold: z.number(),
  /** Per-category eval thresholds (evaluate.eval_thresholds); absent from runs registered before they were. */
  eval_thresholds: z.record(z.string(), z.number()).optional(),
  baseline_min_pass_rate: z.number(),
  standalone_min_pass_rate: z.number(),
  /** Absent from runs registered before it was; those keep the default (config/pipeline.ts). */
  max_error_share: z.number().optional(),
  /** A trigger suite's own bars; absent from runs registered before them. */
  min_trigger_rate: z.number().optional(),
  max_false_trigger_rate: z.number().optional(),
  /** Rounds' bound and whether the engines are taken as deterministic; absent from runs registered before them. */
  max_attempts: z.number().optional(),
  deterministic: z.union([z.literal('auto'), z.boolean()]).optional(),
  holdout_ratio: z.number(),
  max_iterations: z.number(),
  plateau_window: z.number(),
  /** Both decide which candidate reaches evaluation; absent from runs registered before they were. */
  minibatch: z.number().optional(),
  llm_judge: z.boolean().optional(),
  /**
   * pipeline.yaml `stages:`: which program runs a stage in place of the built-in one (its argv). Swapping
   * the generator or the gate for another after results were seen decides by hindsight like any setting.
   */
  stage_programs: z.record(z.string(), z.array(z.string())).optional(),
  /** Each task's split at run start: frozen, so no later change can move a task between splits. */
  splits: z.record(z.string(), z.enum(['train', 'holdout'] satisfies Split[])),
});
export type RegisteredSettings = z.infer<typeof registeredSettingsSchema>;

export function registeredSettings(cfg: PipelineConfig, tasks: readonly Task[]): RegisteredSettings {
  const splits: Record<string, Split> = {};
  for (const t of assignSplits([...tasks], cfg.loop.holdoutRatio)) splits[t.id] = t.split ?? 'train';
  return {
    eval_threshold: cfg.evalThreshold,
    eval_thresholds: { ...cfg.evalThresholds },
    baseline_min_pass_rate: cfg.baselineMinPassRate,
    standalone_min_pass_rate: cfg.standaloneMinPassRate,
    max_error_share: cfg.maxErrorShare,
    min_trigger_rate: cfg.minTriggerRate,
    max_false_trigger_rate: cfg.maxFalseTriggerRate,
    max_attempts: cfg.maxAttempts,
    deterministic: cfg.deterministic,
    holdout_ratio: cfg.loop.holdoutRatio,
    max_iterations: cfg.loop.maxIterations,
    plateau_window: cfg.loop.plateauWindow,
    minibatch: cfg.loop.minibatch,
    llm_judge: cfg.loop.llmJudge,
    stage_programs: Object.fromEntries(Object.entries(cfg.externalStages ?? {}).map(([stage, p]) => [stage, [...p.command]])),
    splits,
  };
}

/** The settings pipeline.yaml and the suite would give a run now (to compare with the registered ones). */
export function currentSettings(cfg: PipelineConfig, suitePath: string): RegisteredSettings {
  return registeredSettings(cfg, loadSuiteWith(cfg, suitePath, { defaultTimeoutMs: cfg.taskTimeoutMs }).tasks);
}

export function settingsHash(s: RegisteredSettings): string {
  return sha256(canonicalJson(s));
}

const WHERE: Record<Exclude<keyof RegisteredSettings, 'splits'>, string> = {
  eval_threshold: 'evaluate.eval_threshold',
  eval_thresholds: 'evaluate.eval_thresholds',
  baseline_min_pass_rate: 'evaluate.baseline_min_pass_rate',
  standalone_min_pass_rate: 'evaluate.standalone_min_pass_rate',
  max_error_share: 'evaluate.max_error_share',
  min_trigger_rate: 'evaluate.min_trigger_rate',
  max_false_trigger_rate: 'evaluate.max_false_trigger_rate',
  max_attempts: 'evaluate.max_attempts',
  deterministic: 'evaluate.deterministic',
  holdout_ratio: 'loop.holdout_ratio',
  max_iterations: 'loop.max_iterations',
  plateau_window: 'loop.plateau_window',
  minibatch: 'loop.minibatch',
  llm_judge: 'loop.discriminate.llm_judge',
  stage_programs: 'stages.<name>.command',
};

/** Lines describing what changed, in the same words as the thresholds' difference; `from` names where a
 * current value came from when it is not pipeline.yaml (a flag). */
export function settingsDiff(registered: RegisteredSettings, current: RegisteredSettings, from: Partial<Record<keyof typeof WHERE, string>> = {}): string[] {
  const out: string[] = [];
  for (const k of Object.keys(WHERE) as (keyof typeof WHERE)[]) {
    // A run registered before a setting was registered keeps running on what it has.
    if (!(k in registered)) continue;
    const a = JSON.stringify(registered[k]);
    const b = JSON.stringify(current[k]);
    if (a !== b) out.push(`${WHERE[k]}: ${a} (set before results) → ${b} (${from[k] ?? 'pipeline.yaml'} now)`);
  }
  const ids = [...new Set([...Object.keys(registered.splits ?? {}), ...Object.keys(current.splits)])].sort();
  const moved = ids.filter((id) => registered.splits?.[id] !== current.splits[id]);
  // A long list buries the cause (usually the ratio line above); a few ids are enough to act on.
  for (const id of moved.slice(0, 5)) out.push(`split of task ${id}: ${registered.splits?.[id] ?? 'absent'} (set before results) → ${current.splits[id] ?? 'absent'} (suite now)`);
  if (moved.length > 5) out.push(`… and ${moved.length - 5} more task(s) whose split differs`);
  return out;
}

/** Tasks with the split frozen at run start; a task the run did not register gets the ratio's split. */
export function withFrozenSplits(tasks: Task[], frozen: Record<string, Split> | undefined, holdoutRatio: number): Task[] {
  const assigned = assignSplits(tasks, holdoutRatio);
  return frozen ? assigned.map((t) => ({ ...t, split: frozen[t.id] ?? t.split })) : assigned;
}

/**
 * The same splits as withFrozenSplits, set on the tasks themselves: for a suite just loaded and not yet
 * shared, where a copy of every task (100,000 of them in a large suite) would only be garbage.
 */
export function setFrozenSplits(tasks: Task[], frozen: Record<string, Split> | undefined, holdoutRatio: number): void {
  const assigned = splitsOf(tasks, holdoutRatio);
  for (const t of tasks) t.split = frozen?.[t.id] ?? t.split ?? assigned.get(t.id) ?? 'train';
}
