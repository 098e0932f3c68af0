// The human summary of an evaluation artifact, printed on stdout. Every rate comes with its counts and
// interval; errors are shown apart; a run on the mock engine says so.
import { skillEffectLine } from './skill-effect.js';
import { displayPath } from '../config/load-yaml.js';
import { formatDuration } from '../config/duration.js';
import type { z } from 'zod';
import type { EvaluationArtifact, rateSummary, SequentialRecord, StandaloneEvaluation, variantSummary } from '../artifacts/evaluation.js';
import { decisionWords, roundsText } from './sequential-words.js';
import { callsText } from '../evaluation/run-usage.js';

type Rate = z.infer<typeof rateSummary>;
type Variant = z.infer<typeof variantSummary>;

// A rate over nothing judged was not measured: "—", never 0.0000 with an interval of [0, 1].
const f4 = (x: number | null) => (x === null ? '—' : x.toFixed(4));
const ci = (r: Rate) => (r.pass_rate_ci95 ? `[${r.pass_rate_ci95.low.toFixed(2)}, ${r.pass_rate_ci95.high.toFixed(2)}]` : '—');
const counts = (r: Rate) => `${r.passed}/${r.passed + r.failed}`;

function rateLine(label: string, r: Rate): string {
  const err = r.errors ? `  errors ${r.errors}${r.timeouts ? ` (timeouts ${r.timeouts})` : ''}` : '';
  return `${label}${f4(r.pass_rate)} (${counts(r)} judged) 95% CI ${ci(r)}${err}`;
}

function engineLine(a: EvaluationArtifact): string {
  if (!a.engine) return '';
  const mock = a.engine.mock ? ' — offline mock engine: answers quote the skill, this is not a model' : '';
  return `engine: ${a.engine.type}${mock}`;
}

/**
 * Calls, tokens, cost and latency of a variant. A variant served from the cache made no call in this run,
 * so its tokens and cost here are 0, as `whet status` counts them; the artifact's `usage` is what the
 * cached measurement spent, and is named as such.
 */
function usageLine(v: Variant, cached = false): string {
  const cost = (u: Variant['usage']) => (u.cost_usd === null ? '' : ` · cost $${u.cost_usd.toFixed(4)}`);
  if (cached) {
    return `0 call(s) · tokens 0 in / 0 out this run (cached result; its measurement used tokens ${v.usage.input_tokens} in / ${v.usage.output_tokens} out${cost(v.usage)}, latency p50 ${v.latency_ms.p50}ms p95 ${v.latency_ms.p95}ms)`;
  }
  // Every call named and summed in the one wording (call-count.ts), so this line, evaluation.json and `whet status` agree.
  const calls = callsText({ engine: v.engine_calls, judge: v.judge_calls, generator: 0, total: v.engine_calls + v.judge_calls });
  return `${calls}${v.resumed_attempts ? ` (+${v.resumed_attempts} attempt(s) resumed)` : ''} · tokens ${v.usage.input_tokens} in / ${v.usage.output_tokens} out${cost(v.usage)} · latency p50 ${v.latency_ms.p50}ms p95 ${v.latency_ms.p95}ms${concurrencyText(v.concurrency)}`;
}

/** The concurrency actually used; a cap from config or a 429 backoff is said, never left to be guessed. */
export function concurrencyText(c: Variant['concurrency']): string {
  if (!c) return '';
  const capped = c.effective < c.requested ? ` (${c.requested} asked for; capped by ${c.capped_by ?? 'the engine'})` : '';
  const adaptive = c.adaptive_lowest !== null ? `; 429s lowered the adaptive limit to ${c.adaptive_lowest}` : '';
  return ` · concurrency ${c.effective}${capped}${adaptive}`;
}

/** Intent suites: the system metrics of examples/intents/README.md "Metrics", each as n/N. */
function intentLine(m: { selection: Frac; params: Frac; clarification: Frac; false_clarification: Frac; hallucination: Frac; overreach: Frac }): string {
  const f = (x: Frac) => `${x.n}/${x.d}`;
  return `intents: selection ${f(m.selection)} · params ${f(m.params)} · clarification ${f(m.clarification)} · false clarification ${f(m.false_clarification)} · hallucination ${f(m.hallucination)} · overreach ${f(m.overreach)}`;
}
type Frac = { n: number; d: number };

function failures(results: StandaloneEvaluation['task_results'], max = 10): string[] {
  const bad = results.filter((r) => r.status !== 'pass');
  const lines = bad.slice(0, max).map((r) => `  ${r.status.toUpperCase().padEnd(5)} ${r.task_id}: ${r.reason}`);
  if (bad.length > max) lines.push(`  … and ${bad.length - max} more (see the artifact)`);
  return lines;
}

type JudgeCal = NonNullable<EvaluationArtifact['judge_calibration']>[number];

/** One line per model-graded judge: calibrated or not, and the judge-corrected rate beside the raw one. */
export function judgeLines(cals: JudgeCal[] | undefined): string[] {
  if (!cals?.length) return [];
  return [
    'model-graded judges (pass rate over the tasks each judge alone decides, raw → corrected for its errors, Rogan–Gladen):',
    ...cals.map((c) => {
      const who = `  ${c.judge} (${c.tasks.length} task${c.tasks.length === 1 ? '' : 's'}): `;
      if (!c.calibrated) return `${who}not calibrated — ${c.detail}`;
      const r = c.record;
      const on = r ? `calibrated on ${r.n} labelled outputs, ${r.created_at}${r.engine.mock ? ', judged by the offline mock engine: this demonstrates the tool, it is not agreement with people' : ''}` : 'calibrated';
      const raw = c.observed_pass_rate === undefined ? 'no task judged by it alone' : `raw ${f4(c.observed_pass_rate)}${c.observed_judged ? ` (${c.observed_passed}/${c.observed_judged})` : ''} → corrected ${c.corrected_pass_rate == null ? '— (the judge is no better than chance)' : f4(c.corrected_pass_rate)}`;
      return `${who}${on}; ${raw}`;
    }),
  ];
}

function cacheLine(c: StandaloneEvaluation['evaluation']['cache'] | undefined): string {
  if (!c) return '';
  if (!c.used) return 'cache: off';
  if (c.hit) return `cache: hit, ${formatDuration(c.age_ms ?? 0)} old (ttl ${formatDuration(c.ttl_ms)})`;
  return `cache: miss (${c.why ?? 'absent'})${c.stored ? ', result stored' : ', not stored (errors or incomplete)'}`;
}

export function formatEvaluation(a: EvaluationArtifact, artifactPath: string): string {
  const out: string[] = [];
  out.push(`whet evaluate — ${a.mode} — ${a.skill_id} — ${engineLine(a)}`);
  out.push(`suite: ${displayPath(a.task_suite)} · pass@${a.pass_k}${a.suite_copy?.hit ? ' · unchanged, read from its checked copy' : ''}`);
  if (a.mode === 'standalone') {
    const e = a.evaluation;
    out.push(`skill: ${displayPath(a.skill_path)}`, '');
    out.push(rateLine('pass rate ', e));
    if (a.without_skill) out.push(rateLine('without the skill ', a.without_skill.summary), skillEffectLine(a.without_skill, e.pass_rate));
    if (a.pass_k > 1) out.push(`pass@1 ${f4(e.pass_at_1)} · pass@${a.pass_k} ${f4(e.pass_at_k)} · pass^${a.pass_k} ${f4(e.pass_hat_k)}`);
    const cats = Object.entries(e.per_category);
    if (cats.length > 1) {
      out.push('by category:');
      for (const [c, r] of cats) out.push(rateLine(`  ${c.padEnd(20)} `, r));
    }
    for (const [s, r] of Object.entries(e.per_split)) out.push(rateLine(`split ${s.padEnd(8)} `, r));
    if (e.intent_metrics) out.push(intentLine(e.intent_metrics.overall));
    out.push(...judgeLines(a.judge_calibration));
    if (e.trigger) out.push(`skill triggered: ${e.trigger.triggered}/${e.trigger.should} when it should (${e.trigger.trigger_rate ?? '—'}${ciText(e.trigger.trigger_rate_ci95)}), ${e.trigger.false_triggered}/${e.trigger.should_not} when it should not (${e.trigger.false_trigger_rate ?? '—'}${ciText(e.trigger.false_trigger_rate_ci95)}); precision ${e.trigger.precision ?? '—'}${ciText(e.trigger.precision_ci95)}, recall ${e.trigger.recall ?? e.trigger.trigger_rate ?? '—'}`);
    if (e.unjudged) out.push(`unjudged: ${e.unjudged.tasks} eval(s) ran with nothing to grade them by (no expectations, no expected_output), in no rate: ${e.unjudged.task_ids.join(', ')}`);
    out.push(...failures(a.task_results));
    out.push('', `verdict: ${a.verdict} — ${a.reason ?? ''}`, usageLine(e, e.cache?.hit === true), cacheLine(e.cache));
  } else {
    const e = a.evaluation;
    out.push(`candidate: ${a.candidate_id} (discriminator score ${a.candidate_score ?? 'none'}, eval threshold ${a.eval_threshold})`, '');
    if (e.candidate) out.push(rateLine('candidate ', e.candidate));
    if (e.baseline) out.push(rateLine('baseline  ', e.baseline));
    if (e.delta !== null) out.push(`delta ${e.delta >= 0 ? '+' : ''}${f4(e.delta)}`);
    if (e.paired) {
      const p = e.paired;
      out.push(
        `paired on ${p.tasks_compared} tasks: both pass ${p.both_pass}, both fail ${p.both_fail}, fixed ${p.fixed}, regressed ${p.regressed}; exact McNemar p = ${p.p_value}${p.excluded_errors ? ` (${p.excluded_errors} task(s) with errors left out)` : ''}`,
      );
      if (p.regressions.length) out.push(`  regressions: ${p.regressions.slice(0, 10).join(', ')}${p.regressions.length > 10 ? ', …' : ''}`);
    }
    const cats = Object.entries(e.per_category ?? {});
    if (cats.length > 1) {
      out.push('by category (candidate vs baseline):');
      for (const [c, r] of cats) out.push(`  ${c.padEnd(20)} ${counts(r.candidate)} vs ${counts(r.baseline)} (${r.delta !== null && r.delta >= 0 ? '+' : ''}${f4(r.delta)})`);
    }
    if (e.engine_noise && !e.engine_noise.deterministic && !e.sequential) out.push(`noisy engine (${e.engine_noise.why}); no rounds were run`);
    if (e.sequential) out.push(sequentialLine(e.sequential));
    if (e.train) out.push(`train tasks: ${e.train.why}`);
    out.push(...judgeLines(a.judge_calibration));
    out.push(...failures(a.candidate_results));
    out.push('', `verdict: ${a.verdict} — ${a.reason ?? ''}`);
    if (e.candidate) out.push(`candidate: ${usageLine(e.candidate, e.candidate_cache?.hit === true)}`);
    if (e.baseline) out.push(`baseline:  ${usageLine(e.baseline, e.baseline_cache?.hit === true)}`);
    if (e.baseline_cache) out.push(`baseline ${cacheLine(e.baseline_cache)}`);
  }
  out.push(`next: ${a.next_step} (${a.next_owner})`, `artifact: ${displayPath(artifactPath)}`);
  return out.filter((l, i, all) => !(l === '' && all[i - 1] === '')).join('\n');
}

/** The rounds on a noisy engine in two lines: what they cost, and what they decided. */
export function sequentialLine(r: SequentialRecord): string {
  return `rounds: ${roundsText(r)}\nsequential test: ${r.decision === 'keep' ? 'keep' : 'no keep'} — ${decisionWords(r)}`;
}

/** " [0.34, 1.00]" for an interval, nothing for none. */
function ciText(ci: { low: number; high: number } | null | undefined): string {
  return ci ? ` [${ci.low.toFixed(2)}, ${ci.high.toFixed(2)}]` : '';
}

/** How the CLI words a rate and its interval: `whet view` words them the same (assets/view/format.js, held to these by test/unit/view-format.test.ts). */
export { f4 as rateNumber, ci as rateInterval };
