// Trigger suites (should_trigger tasks) measure whether the agent invoked the skill on its own, which only
// an engine that installs the skill the way the agent finds it can observe. On any other engine every
// query would be paid for and then be an error, so the run is refused before the first call instead.
import type { EngineConfig } from './engine-schema.js';
import type { Suite, Task } from './suite-schema.js';

/** The engines that report `skill_triggered` (src/evaluation/run-variant.ts triggerJudge). */
export const TRIGGER_ENGINES = 'engine: {type: claude, mode: installed} or engine: {type: codex, skill_delivery: installed}';

export function reportsTriggering(cfg: Pick<EngineConfig, 'type'> & { mode?: unknown; skill_delivery?: unknown }): boolean {
  if (cfg.type === 'claude') return cfg.mode === 'installed';
  if (cfg.type === 'codex') return cfg.skill_delivery === 'installed';
  return false;
}

export function triggerTaskCount(tasks: readonly Pick<Task, 'shouldTrigger'>[]): number {
  let n = 0;
  for (const t of tasks) if (t.shouldTrigger !== undefined) n++;
  return n;
}

/** Why this engine cannot measure the suite's trigger queries, or undefined when it can (or there are none). */
export function triggerEngineRefusal(tasks: readonly Pick<Task, 'shouldTrigger'>[], cfg: EngineConfig, where: string): string | undefined {
  const n = triggerTaskCount(tasks);
  if (n === 0 || reportsTriggering(cfg)) return undefined;
  const what = cfg.type === 'mock' ? 'the mock engine (--mock)' : `the ${cfg.type} engine${cfg.type === 'claude' ? ' in prepend mode' : cfg.type === 'codex' ? ` with skill_delivery: ${String((cfg as { skill_delivery?: string }).skill_delivery ?? 'agents_md')}` : ''}`;
  return (
    `${n} task(s) are trigger queries (should_trigger), but ${what} cannot tell whether the agent invoked the skill: ` +
    `every query would be an engine call ending in an error. Set ${TRIGGER_ENGINES} in ${where}; nothing was run`
  );
}

/**
 * The name a run and its reports carry. A trigger set names no skill (its folder is often `evals/` or a
 * collection such as `trigger-sets/`): the skill measured against it is the one whose description it tests.
 */
export function measuredSkillId(suite: Pick<Suite, 'skillId' | 'format'>, skillName: string | undefined): string {
  return suite.format === 'skill-creator-trigger' && skillName ? skillName : suite.skillId;
}
