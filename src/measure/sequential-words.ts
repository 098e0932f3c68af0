// The sequential test's outcome in words a person can act on (issue 27 §5): the held-out effect with its
// interval, how many attempts it took, the power the design had for the smallest effect worth finding,
// and when nothing was decided, what would decide it. Shared by `whet evaluate`, the gate, status, show
// and the reports, so every place says the same thing.
import type { SequentialRecord } from '../artifacts/evaluation.js';
import { signedPoints as sign } from '../core/numbers.js';

const pts = (x: number) => `${x >= 0 ? '+' : '−'}${Math.round(Math.abs(x) * 100)}-point`;

export function effectText(r: Pick<SequentialRecord, 'effect'>): string {
  const e = r.effect;
  if (e.effect === null) return 'no held-out task measured on both';
  const ci = e.low !== null && e.high !== null ? ` (${Math.round(e.confidence * 100)}% CI ${sign(e.low)} to ${sign(e.high)})` : '';
  return `held-out effect ${sign(e.effect)}${ci} over ${e.tasks} task(s)`;
}

export function roundsText(r: SequentialRecord): string {
  const last = r.looks.at(-1)!;
  const z = last.z === null ? 'no information' : `z ${last.z.toFixed(2)}`;
  const bound = last.decision === 'keep' ? `≥ ${last.upper?.toFixed(2)}` : last.final ? `< ${last.upper?.toFixed(2) ?? '∞'} at max_attempts` : `≤ ${last.lower?.toFixed(2) ?? '−∞'}`;
  return `${r.rounds} round(s), ${r.attempts} attempt(s) per held-out task per variant (max ${r.settings.max_attempts}); ${z} ${bound}; ${r.calls.engine + r.calls.judge} calls in later rounds, ${r.calls.saved} saved against running every attempt`;
}

/** "kept: …" or "rejected: …" — the decision first, then why, then what would change it. */
export function decisionWords(r: SequentialRecord): string {
  const power = r.power === null ? '' : `; the design had power ${r.power.toFixed(2)} for a ${pts(r.settings.min_effect)} gain`;
  if (r.decision === 'keep') return `better at significance ${r.settings.significance} (one-sided${r.settings.run_significance !== undefined ? `; ${r.settings.run_significance} over the run's ${r.settings.max_iterations} candidate(s)` : ''}): ${effectText(r)} after ${r.attempts} attempt(s) per task (p ${r.p_value})`;
  const last = r.looks.at(-1)!;
  if (last.tasks === 0) return 'no held-out task was measured on both variants';
  if (r.tasks.every((t) => t.baseline.passes === t.baseline.judged)) return `the baseline passed every held-out attempt: no gain can show on these tasks (${effectText(r)})`;
  // A rejection is final for this candidate (issue 38): measuring it again with more attempts would spend
  // the error a second time. What would have given the design its power is said for the next run's suite.
  const more = r.attempts_for_80 !== null && r.attempts_for_80 > r.settings.max_attempts ? `; this candidate is decided — for later runs, evaluate.max_attempts ${r.attempts_for_80} (or more held-out tasks) would size the design for a ${pts(r.settings.min_effect)} gain (whet plan)` : r.attempts_for_80 === null && r.power !== null && r.power < 0.8 ? '; this candidate is decided — for later runs, more held-out tasks would size the design for it (whet plan)' : '';
  const why = last.final ? `no evidence of a gain at this size (the design is sized for ${pts(r.settings.min_effect)}, not a bar a keep must clear)` : `the evidence is against a ${pts(r.settings.min_effect)} gain`;
  return `${why}: ${effectText(r)} after ${r.attempts} attempt(s) per task${power}${more}`;
}
