// `whet status`: every run in the state directory with its target, iteration, last stage, decisions so
// far, what runs next and how long ago it was touched.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { formatDuration } from '../config/duration.js';
import { stateLayout } from '../state/layout.js';
import { readLenient } from '../state/read-lenient.js';
import { DECISIONS, iterationView } from './run-view.js';
import { rateLimitState, rolledBackAt, type RateLimitState } from '../state/events-read.js';
import { iterations } from '../loop/iterations.js';
import { callsText, spentIn, type RunTotals } from '../evaluation/run-usage.js';
import { repairAdvice, verifyRun } from './verify-run.js';
import { VerifiedMemo } from './verified-memo.js';
import { runIds } from './verify-state.js';
import { formatProblems, type Problem } from '../state/verify-files.js';
import { runLiveness } from '../state/lock.js';

export interface RunStatus {
  run_id: string;
  mode: string;
  status: string;
  target: string;
  iteration: number | null;
  last_stage: string | null;
  decisions: string[];
  verdict: string | null;
  next: string;
  updated_at: string;
  age_ms: number;
  engine_calls: number | null;
  /** Totals over every results file of the run (what budgets count). */
  totals: RunTotals;
  /** When `whet rollback` last undid this run's promotions (its kept decisions no longer hold), else null. */
  rolled_back_at: string | null;
  /** A subscription rate limit the run is paused on (and when it resumes) or was stopped by, else null. */
  rate_limit: RateLimitState | null;
  /** Files of the run that failed verification (verify-run.ts): their values are left out above. */
  problems: Problem[];
  /** run.json says running but no live process holds the run (killed, rebooted): why, and status is `interrupted`. */
  interrupted_because?: string;
}

/** What a run's status is: `running` only while a live process holds it (the lock's own check), else `interrupted`. */
export function liveStatus(stateDir: string, runId: string, status: string): { status: string; because?: string } {
  if (status !== 'running') return { status };
  const live = runLiveness(stateDir, runId);
  return live.alive ? { status } : { status: 'interrupted', because: live.why };
}

/** How to go on with an interrupted run. */
export const resumeHint = (runId: string, mode: string) => (mode === 'loop' ? `continue with "whet resume ${runId}"` : 'run the same command again to resume');

/**
 * Every run, oldest first (or only the runs `only` names: the newest of `whet status`, one row of the
 * viewer's runs list). What runs next in a loop run is read through its artifacts' schema
 * (loop/next-step.ts), imported at the first loop run: a state of standalone runs loads no zod.
 */
export async function listRuns(stateDir: string, now: Date, only?: readonly string[]): Promise<RunStatus[]> {
  const runsDir = stateLayout.runsDir(stateDir);
  if (!existsSync(runsDir)) return [];
  const out: RunStatus[] = [];
  // Every run folder, run.json or not: a lost run.json is a damage to name, never "no runs yet" (issue 31).
  for (const id of only ?? runIds(stateDir)) {
    const runDir = stateLayout.runDir(stateDir, id);
    const lenient = readLenient(stateLayout.runManifest(runDir));
    const finished = lenient?.mode !== 'loop' && typeof lenient?.summary?.verdict === 'string';
    // Files verified clean by an earlier status and unchanged since are not read again (verified-memo.ts).
    const memo = VerifiedMemo.open(stateDir, id);
    const check = await verifyRun(stateDir, id, { now, manifestOnly: finished, memo });
    const damaged = check.damaged;
    const manifestFile = stateLayout.runManifest(runDir);
    const m = (damaged.has(manifestFile) ? undefined : readLenient(manifestFile)) ?? { mode: iterations(runDir).length ? 'loop' : '?', status: 'damaged', target: { skill_path: startedTarget(runDir) } };
    // With run.json lost, the run was last touched when its events were.
    const updated = String(m.updated_at ?? m.created_at ?? (existsSync(stateLayout.events(runDir)) ? statSync(stateLayout.events(runDir)).mtime.toISOString() : ''));
    const base: RunStatus = {
      run_id: id,
      mode: m.mode ?? '?',
      status: m.status ?? '?',
      target: m.target?.skill_path ?? '?',
      iteration: null,
      last_stage: null,
      decisions: [],
      verdict: null,
      next: '-',
      updated_at: updated,
      age_ms: Math.max(0, now.getTime() - Date.parse(updated)),
      engine_calls: null,
      totals: spentIn(runDir, m, memo),
      rolled_back_at: rolledBackAt(runDir),
      rate_limit: rateLimitState(runDir, now),
      problems: check.problems,
    };
    const live = liveStatus(stateDir, id, base.status);
    if (live.because) Object.assign(base, { status: live.status, interrupted_because: live.because });
    if (m.mode === 'loop') {
      const its = iterations(runDir);
      const views = its.map((n) => iterationView(runDir, n, damaged, DECISIONS));
      const last = views[views.length - 1];
      base.iteration = last?.iteration ?? null;
      base.last_stage = last?.last_stage ?? null;
      // On a noisy engine a decision took rounds of attempts: how many, and the calls they saved.
      // A damaged gate.json's decision is never shown (issue 31): `N:?` says there was one.
      base.decisions = views.flatMap((v) => {
        if (!v.gate) return v.damaged?.includes('gate.json') ? [`${v.iteration}:? (gate.json damaged)`] : [];
        const s = v.gate.sequential;
        return [`${v.iteration}:${v.gate.decision}${s ? ` (${s.rounds} round${s.rounds === 1 ? '' : 's'}, ${s.calls_saved} calls saved)` : ''}`];
      });
      if (check.problems.length) base.next = `none until repaired: ${repairAdvice(id, check.problems)}`;
      else try {
        const { nextStep } = await import('../loop/next-step.js');
        const n = nextStep(runDir);
        // A measurement that stopped early waits for a fix; resume measures it again.
        base.next = n.kind === 'step' ? `${n.step} (iteration ${n.iteration})${n.retry ? ` again on resume, after a fix — ${n.retry.reason}` : ''}` : `${n.status}: ${n.reason}`;
      } catch (err) {
        base.next = `unknown: ${(err as Error).message}`;
      }
    } else if (m.summary && typeof m.summary.verdict === 'string') {
      base.verdict = m.summary.verdict;
      base.engine_calls = m.summary.engine_calls ?? null;
      base.last_stage = 'evaluate';
    } else {
      const e = damaged.has(`${runDir}/evaluation.json`) ? undefined : readLenient(`${runDir}/evaluation.json`);
      if (e) {
        base.verdict = e.verdict;
        base.engine_calls = e.evaluation?.engine_calls ?? null;
        base.last_stage = 'evaluate';
      } else base.next = m.status === 'completed' ? '-' : 'evaluate (run the same command again to resume)';
    }
    memo.save();
    out.push(base);
  }
  return out;
}

/** How many runs `whet status` shows without --all: the newest. */
export const STATUS_NEWEST = 20;

/** The line above the newest runs that says how many older ones were left out, and how to see them. */
export const olderRuns = (n: number): string => (n > 0 ? `${n} older run${n === 1 ? '' : 's'} not shown (nor checked): "whet status --all" lists every run\n` : '');

export function formatStatus(runs: RunStatus[]): string {
  if (runs.length === 0) return 'no runs yet in this state directory (start one with "whet run" or "whet evaluate"; another project\'s runs: -c its pipeline.yaml, or --state-root DIR)';
  return runs
    .map((r) => {
      const what = r.mode === 'loop' ? `iteration ${r.iteration ?? '-'}, last ${r.last_stage ?? '-'}, decisions ${r.decisions.join(' ') || '-'}, next ${r.next}` : `verdict ${r.verdict ?? '-'}`;
      const cost = r.totals.cost_usd ? `, $${r.totals.cost_usd.toFixed(4)}` : '';
      const limit = r.rate_limit
        ? `\n    ${r.rate_limit.state === 'paused' ? `paused on a ${r.rate_limit.engine} rate limit; resumes at ${r.rate_limit.resets_at ?? '?'}` : `stopped by a ${r.rate_limit.engine} rate limit${r.rate_limit.resets_at ? ` (resets at ${r.rate_limit.resets_at})` : ''}; ${r.mode === 'loop' ? `continue with "whet resume ${r.run_id}"` : 'run the same evaluate command again to resume'}`}`
        : '';
      const rolled = r.rolled_back_at ? `\n    rolled back ${r.rolled_back_at}: the target was restored to what it was before this run` : '';
      const tokens = `, tokens ${r.totals.input_tokens} in / ${r.totals.output_tokens} out`;
      const bad = r.problems.length ? `\n${formatProblems(r.problems, '    ').trimEnd()}` : '';
      const dead = r.interrupted_because ? `\n    interrupted: run.json says running, but ${r.interrupted_because}; ${resumeHint(r.run_id, r.mode)}` : '';
      return `${r.run_id}  ${r.mode}  ${r.status}${r.problems.length ? ' (DAMAGED)' : ''}${r.rolled_back_at ? ' (rolled back)' : ''}  ${r.target}\n    ${what}; ${callsText(r.totals.calls, r.totals.engine_calls)}${tokens}${cost}; ${formatDuration(r.age_ms)} ago${rolled}${limit}${dead}${bad}`;
    })
    .join('\n');
}

/** The target run_started named: what status shows of a run whose run.json is lost or damaged. */
function startedTarget(runDir: string): string | undefined {
  const file = stateLayout.events(runDir);
  if (!existsSync(file)) return undefined;
  const line = readFileSync(file, 'utf8').split('\n').find((l) => l.includes('"run_started"'));
  try {
    const t = line ? (JSON.parse(line) as { target?: unknown }).target : undefined;
    return typeof t === 'string' ? t : undefined;
  } catch {
    return undefined;
  }
}
