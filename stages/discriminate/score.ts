// The discriminator's cheap score (0–10, the scale of the eval threshold) and its recommendations. Pure:
// facts about a candidate in, a score with every part and its reason out. It costs no engine call, so it
// can only rank by signals the artifacts carry; what matters is decided by the evaluation and the gate.
//
// score = clamp(0, 10, round2(
//     5                                               base
//   + min(3, 1.5 × train failures it answers)         evidence observed on this skill weighs most
//   + clamp(−2, +1.5, 10 × structure gain)            gain in the mean of the 9 structure checks (one
//                                                      check from 0 to 1 is +1.11); not credited when the
//                                                      edit adds [placeholders]: the checks see the
//                                                      template's heading, not content
//   + risk: low +0.5, medium 0, high −1               frontmatter/description edits change routing
//   − min(2, 0.025 × max(0, lines changed − 20))      big diffs are harder to review and riskier
//   − 1 if the edit adds unfilled [placeholders]      a template helps no agent until someone fills it
//   − 1.5 if its category, answering the same signal   lessons: what keeps failing on this target
//          (train failures of a task category, or a     ranks lower (one rejection can be bad luck)
//          structure dimension), was rejected ≥ 2 times
// ))
// With loop.discriminate.llm_judge on, the judge's rating r (0–10; judge.ts) then moves the score by
//   + clamp(−1.5, +1.5, 0.3 × (r − 5))               5 is neutral; the judge can lift or sink a candidate
//                                                      by at most 1.5, so it reorders close calls but
//                                                      cannot outweigh the evidence terms above
// and the result is clamped to 0–10 again. A judge error leaves the cheap score as it was (reason shown).
// With the default threshold 6.0 a feedback candidate answering one failure (6.5) is evaluated, and so is
// a structural fix with real content that completes one check (5 + 1.11 + 0.5 = 6.61: a closed code
// fence, a "When to Use" section from the description's own "Use when …"); an unfilled template
// (5 + 0.5 − 1 = 4.5) is not, whatever dimension it is for.
import type { Lesson } from '../../src/artifacts/learning.js';
import type { Candidate } from '../../src/artifacts/candidates.js';
import { countPlaceholders } from '../../src/skill/placeholders.js';
import { addressesOf } from '../../src/lessons/lesson.js';
import type { ScoredCandidate } from '../../src/artifacts/ranking.js';

export { countPlaceholders };

export const WEIGHTS = {
  base: 5,
  perTrainFailure: 1.5,
  maxTrainFailures: 3,
  structureScale: 10,
  structureMin: -2,
  structureMax: 1.5,
  risk: { low: 0.5, medium: 0, high: -1 },
  freeLines: 20,
  perExtraLine: 0.025,
  maxSizePenalty: 2,
  placeholders: -1,
  repeatedRejections: 2,
  lessonPenalty: -1.5,
  judgeNeutral: 5,
  judgePerPoint: 0.3,
  judgeMax: 1.5,
} as const;

export interface ScoreFacts {
  candidate: Candidate;
  /** Structure totals (0..1) of the target and of the variant on disk; null when the variant is unreadable. */
  targetStructure: number;
  variantStructure: number | null;
  /** Unfilled template placeholders in the target and in the variant. */
  targetPlaceholders: number;
  variantPlaceholders: number;
  /** The variant's SKILL.md hashes to the content_sha256 candidates.json recorded. */
  variantIntact: boolean;
  /** Lessons on this target (any run). */
  lessons: readonly Lesson[];
}

export interface Scored {
  score: number;
  parts: Record<string, number>;
  reasons: string[];
}


const r2 = (x: number) => Math.round(x * 100) / 100;
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(r2(x))}`;

export function scoreCandidate(f: ScoreFacts): Scored {
  const c = f.candidate;
  if (!f.variantIntact || f.variantStructure === null) {
    return { score: 0, parts: { base: 0 }, reasons: ['the variant on disk is missing or differs from candidates.json: nothing trustworthy to evaluate (score 0)'] };
  }
  const parts: Record<string, number> = { base: WEIGHTS.base };
  const reasons: string[] = [`base ${WEIGHTS.base}`];
  const answered = c.answers.tasks ?? [];
  if (answered.length > 0) {
    parts.train_failures = Math.min(WEIGHTS.maxTrainFailures, WEIGHTS.perTrainFailure * answered.length);
    reasons.push(`answers ${answered.length} train failure(s) (${answered.join(', ')}): ${signed(parts.train_failures)}`);
  }
  const gain = f.variantStructure - f.targetStructure;
  const template = f.variantPlaceholders > f.targetPlaceholders;
  if (gain > 0 && template) {
    // The structure checks see a section's heading, not whether its content is real: a template's
    // "[a realistic request]" passes them. Crediting that gain and then charging the placeholders gave
    // every one-dimension template the same 5.61, whatever it was; the shape alone is not a gain.
    reasons.push(`structure score ${f.targetStructure.toFixed(3)} → ${f.variantStructure.toFixed(3)} not credited: the gain comes from an unfilled template`);
  } else if (gain !== 0) {
    parts.structure = Math.max(WEIGHTS.structureMin, Math.min(WEIGHTS.structureMax, WEIGHTS.structureScale * gain));
    reasons.push(`structure score ${f.targetStructure.toFixed(3)} → ${f.variantStructure.toFixed(3)}: ${signed(parts.structure)}`);
  }
  parts.risk = WEIGHTS.risk[c.risk];
  reasons.push(`risk ${c.risk}: ${signed(parts.risk)}`);
  const changed = c.diff_stats.added + c.diff_stats.removed;
  if (changed > WEIGHTS.freeLines) {
    parts.size = -Math.min(WEIGHTS.maxSizePenalty, WEIGHTS.perExtraLine * (changed - WEIGHTS.freeLines));
    reasons.push(`${changed} lines changed (over ${WEIGHTS.freeLines}): ${signed(parts.size)}`);
  }
  if (template) {
    parts.placeholders = WEIGHTS.placeholders;
    reasons.push(`adds ${f.variantPlaceholders - f.targetPlaceholders} unfilled [placeholder](s), a template to fill before it can help: ${signed(parts.placeholders)}`);
  }
  // The same change category answering the same signal: two rejected feedback rules for security
  // requests say nothing about a rule for breaking changes, though both are `coverage`.
  const addresses = addressesOf(c.answers);
  const rejected = f.lessons.filter((l) => l.decision === 'reject' && l.category === c.category && (l.addresses ?? null) === addresses);
  if (rejected.length >= WEIGHTS.repeatedRejections) {
    parts.lessons = WEIGHTS.lessonPenalty;
    const where = rejected.map((l) => `${l.run_id} iter ${l.iteration}`).join('; ');
    reasons.push(`lessons: ${c.category} changes answering ${addresses} were rejected ${rejected.length} times on this target (${where}): ${signed(parts.lessons)}`);
  }
  const total = Object.values(parts).reduce((s, x) => s + x, 0);
  const score = r2(Math.max(0, Math.min(10, total)));
  return { score, parts: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, r2(v)])), reasons };
}

/** The cheap score moved by the llm judge's rating (bounded, see the formula above), or kept on an error. */
export function applyJudge(s: Scored, j: { ok: true; rating: number; reason: string } | { ok: false; error: string }): Scored {
  if (!j.ok) return { ...s, reasons: [...s.reasons, `llm judge error: ${j.error}; the cheap score stands`] };
  const delta = r2(Math.max(-WEIGHTS.judgeMax, Math.min(WEIGHTS.judgeMax, WEIGHTS.judgePerPoint * (j.rating - WEIGHTS.judgeNeutral))));
  const score = r2(Math.max(0, Math.min(10, s.score + delta)));
  return { score, parts: { ...s.parts, llm_judge: delta }, reasons: [...s.reasons, `llm judge rated ${j.rating}/10 (${j.reason}): ${signed(delta)}`] };
}

export interface Ranked {
  id: string;
  score: number;
  order: number;
}

/** Best first; equal scores keep the generator's order (its own priority). */
export function rankOrder<T extends Ranked>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.score - a.score || a.order - b.order);
}

/** A single eval threshold, or each candidate's own (evaluate.eval_thresholds, by category). */
export type ThresholdOf<T extends Ranked = Ranked> = number | ((r: T) => number);
const bar = <T extends Ranked>(t: ThresholdOf<T>, r: T) => (typeof t === 'number' ? t : t(r));

/** The best candidate at or above its threshold that the minibatch has not vetoed, or null. */
export function pickNext<T extends Ranked>(ranked: readonly T[], threshold: ThresholdOf<T>, vetoed: ReadonlySet<string>): string | null {
  return ranked.find((r) => r.score >= bar(threshold, r) && !vetoed.has(r.id))?.id ?? null;
}

/** evaluate for the selected one, hold for the others at or above the threshold, reject below it or when vetoed. */
export function recommendation<T extends Ranked>(r: T, thresholdOf: ThresholdOf<T>, selected: string | null, vetoed: ReadonlyMap<string, string>): { recommendation: ScoredCandidate['recommendation']; reason: string } {
  const threshold = bar(thresholdOf, r);
  const veto = vetoed.get(r.id);
  if (veto) return { recommendation: 'reject', reason: veto };
  if (r.id === selected) return { recommendation: 'evaluate', reason: `score ${r.score} ≥ eval threshold ${threshold}: the best candidate, selected for evaluation` };
  if (r.score >= threshold) return { recommendation: 'hold', reason: `score ${r.score} ≥ eval threshold ${threshold}, but one candidate is evaluated per iteration (${selected ?? 'none'} was selected); held` };
  return { recommendation: 'reject', reason: `score ${r.score} < eval threshold ${threshold}: not worth a full evaluation` };
}
