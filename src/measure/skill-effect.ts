// The skill's own effect (`whet evaluate --standalone --without-skill`): skill-creator's central question,
// "does my skill beat no skill?" (its with_skill / without_skill runs). The same suite, engine and judges
// measured once more with no skill at all, then compared task by task exactly as a candidate is compared
// with its baseline — the skill in the candidate's place, no skill in the baseline's: the exact McNemar
// test on the tasks judged both ways, and the mean per-task difference of passed-attempt shares with a t
// interval over tasks (src/evaluation/noisy-checks.ts), so several attempts per task narrow it.
import { passRate } from '../state/measures.js';
import { NO_SKILL_VARIANT } from '../config/skill-creator-dirs.js';
import { pairedComparison } from '../evaluation/paired.js';
import { heldOutEffect } from '../evaluation/noisy-checks.js';
import { summarizeVariant } from '../evaluation/summary.js';
import type { TaskTally } from '../evaluation/aggregate.js';
import type { SkillEffect } from '../artifacts/evaluation.js';
import type { Measured } from './measure.js';

export const EFFECT_METHOD = 'mean over tasks of (share of attempts passed with the skill − without), t interval over tasks';

export function skillEffectOf(withSkill: readonly TaskTally[], noSkill: Measured, passK: number): SkillEffect {
  const without = new Map(noSkill.outcome.tallies.map((t) => [t.task_id, t]));
  const pairs = withSkill.flatMap((t) => {
    const n = without.get(t.task_id);
    return n ? [{ task_id: t.task_id, candidate: { passes: t.passes, judged: t.judged }, baseline: { passes: n.passes, judged: n.judged } }] : [];
  });
  const summary = summarizeVariant(noSkill.outcome, passK);
  return {
    variant: NO_SKILL_VARIANT,
    summary: passRate.parse(summary),
    engine_calls: noSkill.outcome.engineCalls,
    paired: pairedComparison(noSkill.outcome.tallies, [...withSkill]),
    effect: { ...heldOutEffect(pairs), method: EFFECT_METHOD },
    cache: noSkill.cache,
  };
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;

/** The effect in one line, as evaluate prints it and the reports show it. */
export function skillEffectLine(e: SkillEffect, withRate: number | null): string {
  const rate = (r: number | null) => (r === null ? '—' : r.toFixed(4));
  const { effect, low, high, tasks } = e.effect;
  const interval = low === null || high === null ? 'no interval (fewer than 2 tasks judged both ways)' : `95% CI [${pct(low)}, ${pct(high)}] points`;
  const size = effect === null ? 'not measured (no task judged both ways)' : `${pct(effect)} points, ${interval}, over ${tasks} task(s)`;
  return `the skill's own effect: ${size}; pass rate ${rate(withRate)} with the skill, ${rate(e.summary.pass_rate)} without; ${e.paired.fixed} task(s) pass only with it, ${e.paired.regressed} only without (exact McNemar p = ${e.paired.p_value}); ${e.engine_calls} more call(s) without the skill`;
}
