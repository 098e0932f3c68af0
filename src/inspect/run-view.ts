// A run as people read it: per iteration, what was proposed, what was measured and what was decided and
// why — built from the artifacts alone (lenient reads: a half-finished iteration shows what it has).
import { existsSync } from 'node:fs';
import { iterationPaths } from '../loop/paths.js';
import { rolledBackAt } from '../state/events-read.js';
import { stateLayout } from '../state/layout.js';
import { iterations, newestArtifact } from '../loop/iterations.js';
import { gateStandIn, readLenient, type Json } from '../state/read-lenient.js';
import { spentIn, spentWords, type RunTotals } from '../evaluation/run-usage.js';
import { formatProblems, type Problem } from '../state/verify-files.js';
import { signed4 as signed } from '../core/numbers.js';

export interface IterationView {
  iteration: number;
  last_stage: string | null;
  baseline?: { pass_rate: number | null; passed: number; judged: number; cached: boolean };
  candidates: { id: string; title: string; category: string; risk: string; proposer: string; diff: string }[];
  ranking?: { selected: string | null; scored: { id: string; score: number; recommendation: string; reasons: string[] }[] };
  evaluation?: { candidate: string; verdict: string; reason: string; execution_pass_rate: number | null; baseline_pass_rate: number | null; delta: number | null; p_value?: number };
  gate?: { candidate: string | null; decision: string; reason: string; checks: { id: string; passed: boolean; detail: string }[]; holdout?: Json; applied?: Json; sequential?: SequentialView; run_level?: Json };
  learning?: { stop: { stop: boolean; rule: string | null; reason: string }; proposed_cases: number; structure_total: number };
  /** Artifacts of this iteration that failed verification (verify-run.ts): left out above, named here. */
  damaged?: string[];
}

const NONE: ReadonlySet<string> = new Set();

/**
 * `whet status`'s reading: the decisions and the stop only. The measurements (baseline.json and
 * evaluation.json, megabytes each at 10,000 tasks) and the proposals are left unread and out of the view.
 */
export const DECISIONS = { decisionsOnly: true } as const;

/** An iteration as read; a file in `damaged` is read as if absent, so none of its values is shown. */
export function iterationView(runDir: string, n: number, damaged: ReadonlySet<string> = NONE, o: { decisionsOnly?: boolean } = {}): IterationView {
  const p = iterationPaths(runDir, n);
  const read = (f: string) => (damaged.has(f) ? undefined : readLenient(f));
  const measured = (f: string) => (o.decisionsOnly ? undefined : read(f));
  const base = measured(p.baseline);
  const cands = measured(p.candidates);
  const rank = measured(p.ranking);
  const ev = measured(p.evaluation);
  const gate = read(p.gate) ?? gateStandIn(runDir, n, p.gate, damaged.has(p.gate));
  const learn = read(p.learning);
  const bad = (['baseline', 'candidates', 'ranking', 'evaluation', 'gate', 'learning'] as const).filter((k) => damaged.has(p[k])).map((k) => `${k}.json`);
  return {
    iteration: n,
    last_stage: newestArtifact(runDir, n)?.step ?? null,
    ...(base ? { baseline: { pass_rate: base.evaluation?.pass_rate ?? null, passed: base.evaluation?.passed ?? 0, judged: (base.evaluation?.passed ?? 0) + (base.evaluation?.failed ?? 0), cached: !!base.evaluation?.cache?.hit } } : {}),
    candidates: (cands?.candidates ?? []).map((c: Json) => ({ id: c.id, title: c.title, category: c.category, risk: c.risk, proposer: c.proposer, diff: c.diff })),
    ...(rank ? { ranking: { selected: rank.selected ?? null, scored: (rank.scored_candidates ?? []).map((s: Json) => ({ id: s.id, score: s.score, recommendation: s.recommendation, reasons: s.reasons ?? [] })) } } : {}),
    ...(ev
      ? {
          evaluation: {
            candidate: ev.candidate_id,
            verdict: ev.verdict,
            reason: ev.reason ?? '',
            // null (not measured: skipped, or not run) stays null; a 0 would read as a measurement.
            execution_pass_rate: ev.evaluation?.execution_pass_rate ?? null,
            baseline_pass_rate: ev.evaluation?.baseline_pass_rate ?? null,
            delta: ev.evaluation?.delta ?? null,
            p_value: ev.evaluation?.paired?.p_value,
          },
        }
      : {}),
    ...(gate ? { gate: { candidate: gate.candidate_id, decision: gate.decision, reason: gate.reason, checks: gate.checks ?? [], holdout: gate.holdout, applied: gate.applied, ...(gate.sequential ? { sequential: gate.sequential } : {}), ...(gate.run_level ? { run_level: gate.run_level } : {}) } } : {}),
    ...(learn ? { learning: { stop: learn.stop, proposed_cases: learn.proposed_cases?.count ?? 0, structure_total: learn.structure?.total ?? 0 } } : {}),
    ...(bad.length ? { damaged: bad } : {}),
  };
}

export interface RunView {
  manifest: Json | undefined;
  iterations: IterationView[];
  rolled_back_at: string | null;
  artifact?: string;
  /** What the run spent (run-usage.ts's one count). */
  totals: RunTotals;
  /** What failed verification (verify-run.ts); its values are left out of the rest. */
  problems?: Problem[];
  run_id?: string;
}

/** A run as read, with `check` (verify-run.ts) applied: damaged files read as absent, and named. */
export function runView(runDir: string, check?: { runId: string; problems: Problem[]; damaged: ReadonlySet<string> }): RunView {
  const damaged = check?.damaged ?? NONE;
  const manifestFile = stateLayout.runManifest(runDir);
  const manifest = damaged.has(manifestFile) ? undefined : readLenient(manifestFile);
  const evaluation = `${runDir}/evaluation.json`;
  const artifact = manifest?.mode !== 'loop' && existsSync(evaluation) && !damaged.has(evaluation) ? evaluation : undefined;
  return {
    manifest,
    iterations: iterations(runDir).map((n) => iterationView(runDir, n, damaged)),
    rolled_back_at: rolledBackAt(runDir),
    ...(artifact ? { artifact } : {}),
    totals: spentIn(runDir, manifest),
    ...(check?.problems.length ? { problems: check.problems, run_id: check.runId } : {}),
  };
}

/** "spent: 18 call(s): engine 9 · judge 6 · generator 3; tokens 5553 in / 1944 out; $0.0123". */
export function spentLine(t: RunTotals): string {
  return `spent: ${spentWords({ ...t, total: t.engine_calls })}`;
}

// Not measured (nothing judged): "—", as in the reports.
const f4 = (x: number | null) => (x === null ? '—' : x.toFixed(4));

/** The lines `whet run` ends with and `whet show RUN` prints: one block per iteration. */
export function formatRun(view: RunView): string {
  const out: string[] = [];
  const m = view.manifest;
  const rolled = view.rolled_back_at;
  if (!m && view.run_id) out.push(`run ${view.run_id} — run.json cannot be read (see below)`);
  if (m) out.push(`run ${m.run_id} — target ${m.target?.skill_path ?? '?'} — status ${m.status}${rolled ? ` (rolled back ${rolled})` : ''}${m.mock ? ' — mock engine (offline; not a model)' : ''}`);
  if (m?.interrupted_because) out.push(`  interrupted: run.json says running, but ${m.interrupted_because}; ${m.resume_hint}`);
  if (view.problems?.length) out.push(`  ${view.problems.length} problem(s): these files failed verification and none of their values is shown:`, formatProblems(view.problems, '  ').trimEnd());
  // A standalone (or pipeline-mode) evaluation: what run.json kept of how it ended, and where the artifact is.
  const s = m?.mode !== 'loop' ? m?.summary : undefined;
  if (s && typeof s.verdict === 'string') {
    const rate = typeof s.pass_rate === 'number' ? `pass rate ${f4(s.pass_rate)}${typeof s.passed === 'number' && typeof s.total_tasks === 'number' ? ` (${s.passed}/${s.total_tasks} tasks)` : ''}; ` : '';
    out.push(`  verdict ${s.verdict}${rate ? `: ${rate.slice(0, -2)}` : ''}`);
  }
  if (view.artifact) out.push(`  evaluation: ${view.artifact} (every task's result; \`whet report\` renders it)`);
  for (const it of view.iterations) {
    out.push(`iteration ${it.iteration}:`);
    if (it.damaged) out.push(`  not shown (damaged): ${it.damaged.join(', ')}`);
    if (it.baseline) out.push(`  baseline pass rate ${f4(it.baseline.pass_rate)} (${it.baseline.passed}/${it.baseline.judged})${it.baseline.cached ? ' (cached)' : ''}`);
    if (it.candidates.length) out.push(`  proposed: ${it.candidates.map((c) => `${c.id} [${c.category}, ${c.proposer}]`).join(', ')}`);
    if (it.ranking) {
      for (const s of it.ranking.scored) out.push(`    ${s.id}: score ${s.score.toFixed(1)} → ${s.recommendation} (${s.reasons.join('; ')})`);
    }
    if (it.evaluation) {
      const e = it.evaluation;
      const rates = e.execution_pass_rate !== null && e.baseline_pass_rate !== null && e.delta !== null ? `${f4(e.execution_pass_rate)} vs baseline ${f4(e.baseline_pass_rate)} (${signed(e.delta)})` : 'not measured';
      out.push(`  evaluated ${e.candidate}: ${rates}${e.p_value !== undefined ? `, McNemar p = ${e.p_value}` : ''}; verdict ${e.verdict}`);
    }
    if (it.gate) {
      const g = it.gate;
      out.push(`  gate: ${g.decision.toUpperCase()} ${g.candidate ?? ''} — ${g.reason}`);
      if (g.sequential) out.push(`    rounds: ${roundsSummary(g.sequential)}`);
      for (const c of g.checks) out.push(`    [${c.passed ? 'ok' : 'NO'}] ${c.id}: ${c.detail}`);
      // After `whet rollback` the target no longer holds what was applied: say so where "applied" is read.
      if (g.applied) out.push(`    applied to ${g.applied.target}${rolled ? `, then undone by rollback at ${rolled}: the target is as it was before the run` : ''}; backup in ${g.applied.backup}`);
    }
    if (it.learning) out.push(`  learn: ${it.learning.stop.stop ? `stop (${it.learning.stop.rule}): ${it.learning.stop.reason}` : 'continue'}; ${it.learning.proposed_cases} new case(s) proposed for review`);
  }
  if (m) out.push(spentLine(view.totals));
  return out.join('\n');
}

/** gate.json's `sequential` as the read models show it (read leniently: no schema module loaded). */
export interface SequentialView {
  rounds: number;
  attempts: number;
  max_attempts: number;
  engine_calls: number;
  judge_calls: number;
  calls_every_attempt: number;
  calls_saved: number;
  power: number | null;
  min_effect: number;
}

/** "4 rounds, 4 of at most 10 attempts per held-out task, 160 calls (320 saved against every attempt), power 0.60 for +0.10". */
export function roundsSummary(s: SequentialView): string {
  const power = s.power === null ? '' : `, power ${s.power.toFixed(2)} for +${s.min_effect.toFixed(2)}`;
  return `${s.rounds} round(s), ${s.attempts} of at most ${s.max_attempts} attempts per held-out task, ${s.engine_calls + s.judge_calls} calls in later rounds (${s.calls_saved} saved against every attempt)${power}`;
}
