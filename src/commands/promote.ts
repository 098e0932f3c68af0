// Commands that change the target outside the loop: `whet rollback RUN` and `whet review`.
import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import { hostname, userInfo } from 'node:os';
import type { Command } from 'commander';
import { review } from '../../stages/gate/review.js';
import { openRun, resolveRun } from '../loop/open.js';
import { acquireStateLock } from '../state/lock.js';
import { rollbackRun } from '../state/promote.js';
import { appendEvent } from '../state/events.js';
import { reviewQueue } from '../inspect/review-queue.js';
import { stateLayout } from '../state/layout.js';
import { formatProblems } from '../state/verify-files.js';
import { checkIdFlag, checkIterationFlag } from '../config/safe-id.js';
import type { CliDeps, SetCode } from '../program/deps.js';
import { stateDirOf } from './state-dir.js';
import { refuseDamagedRun } from '../inspect/refuse-damaged.js';

interface Opts {
  config?: string;
  stateRoot?: string;
  json?: boolean;
  iteration?: number;
  force?: boolean;
  replaceLinks?: boolean;
}

/**
 * The run a rollback names. Its run.json is not needed (issue 33): the backups and the run's events.jsonl,
 * which holds their hashes, are what a rollback works from, and a lost run.json must not leave a kept
 * change that cannot be undone.
 */
function rollbackTarget(stateDir: string, run: string, warn: (s: string) => void): string {
  checkIdFlag(run, 'run');
  if (existsSync(stateLayout.runManifest(stateLayout.runDir(stateDir, run)))) return run;
  if (!existsSync(stateLayout.backups(stateDir, run))) return resolveRun(stateDir, run);
  warn(`whet: run ${run} has no run.json; rolling back from its backups and events.jsonl\n`);
  return run;
}

const iterationArg = (v: string): number => checkIterationFlag(v);

const who = () => {
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    return 'unknown';
  }
};

/**
 * `whet review approve|reject`: the integrity checks, the state lock and the message, in one place — the
 * command and `whet view --review` (src/commands/view.ts) both call it, so a person approving in the
 * browser gets exactly what typing the command gives.
 */
export async function reviewCandidate(deps: Pick<CliDeps, 'cwd' | 'env' | 'now' | 'stderr'>, stateDir: string, run: string, cand: string, verdict: 'approve' | 'reject', iteration?: number): Promise<string> {
  const runId = resolveRun(stateDir, run);
  checkIdFlag(cand, 'candidate');
  const lock = await acquireStateLock(stateDir, `whet review ${verdict} ${runId} ${cand}`);
  try {
    await refuseDamagedRun(stateDir, runId, `${verdict} ${cand} of run ${runId}`);
    const ctx = await openRun({ cwd: deps.cwd, env: deps.env, now: deps.now, log: (l) => deps.stderr(`${l}\n`) }, { stateDir, runId });
    const r = await review(ctx, cand, verdict, who(), iteration);
    return `${cand} (iteration ${r.iteration}): ${r.gate.decision} — ${r.gate.reason}`;
  } finally {
    await lock.release();
  }
}

export function registerPromoteCommands(program: Command, deps: CliDeps, setCode: SetCode): void {
  program
    .command('rollback')
    .description('restore the target byte-for-byte as it was before the run promoted anything')
    .argument('<run>', 'run id')
    .option('-c, --config <file>', 'pipeline config')
    .option('--state-root <dir>', 'state directory')
    .option('--force', 'restore even over files edited after the keep (their edited bytes are copied aside first)')
    .option('--replace-links', 'where a file to restore is now a symbolic link, replace the link by the restored file (the file it points to is left unchanged); refused otherwise')
    .action(async (run: string, o: Opts) => {
      const stateDir = await stateDirOf(deps, o);
      const runId = rollbackTarget(stateDir, run, deps.stderr);
      const lock = await acquireStateLock(stateDir, `whet rollback ${runId}`);
      try {
        // A rollback works from the backups and the hashes events.jsonl holds of them; run.json may be lost.
        const backups = stateLayout.backups(stateDir, runId);
        const events = stateLayout.events(stateLayout.runDir(stateDir, runId));
        await refuseDamagedRun(stateDir, runId, `roll back run ${runId}`, (p) => p.path === events || p.path.startsWith(backups + sep));
        const r = await rollbackRun(stateDir, runId, { force: o.force === true, now: deps.now(), links: o.replaceLinks ? 'replace' : 'refuse' });
        if (r.restored.length === 0) {
          deps.stdout(`run ${runId}: the target is already as before the run (${r.unchanged.join(', ')}); nothing to restore\n`);
          return;
        }
        appendEvent(stateLayout.runDir(stateDir, runId), { event: 'rollback', restored: r.restored, overwritten: r.overwritten, forced: r.overwritten.length > 0 }, deps.now());
        for (const f of r.overwritten) deps.stderr(`whet: overwrote a later edit of ${f.path}${f.saved_to ? `; the edited file was copied to ${f.saved_to}` : ' (it had been removed)'}\n`);
        for (const f of r.restored) deps.stdout(`restored ${f.path}${f.sha256 ? ` (${f.sha256})` : ' (removed: the run created it)'}\n`);
      } finally {
        await lock.release();
      }
    });

  const rev = program.command('review').description('decide candidates the gate held for a person');
  rev
    .command('list')
    .description('candidates waiting for review, in every run')
    .option('-c, --config <file>', 'pipeline config')
    .option('--state-root <dir>', 'state directory')
    .option('--json', 'JSON output')
    .action(async (o: Opts) => {
      const stateDir = await stateDirOf(deps, o);
      // The one verified queue the viewer shows too (src/inspect/review-queue.ts): a candidate of a damaged
      // run — a gate.json forged to pending_review included — is never listed; its damage is named (exit 1).
      const queue = await reviewQueue(stateDir, deps.now());
      if (queue.problems.length) {
        deps.stderr(`${formatProblems(queue.problems)}whet: the candidates of a damaged run are not listed: "whet verify --repair RUN" first\n`);
        setCode(1);
      }
      const pending = queue.pending.map((p) => ({ run_id: p.run_id, iteration: p.iteration, candidate: p.gate.candidate_id, reason: p.gate.reason }));
      if (o.json) deps.stdout(`${JSON.stringify(pending, null, 2)}\n`);
      else deps.stdout(pending.length ? `${pending.map((p) => `${p.run_id} iteration ${p.iteration}: ${p.candidate} — ${p.reason}`).join('\n')}\n` : 'nothing waits for review\n');
    });
  for (const verdict of ['approve', 'reject'] as const) {
    rev
      .command(verdict)
      .description(verdict === 'approve' ? 'apply a held candidate (under the gate’s checks)' : 'reject a held candidate')
      .argument('<run>', 'run id')
      .argument('<candidate>', 'candidate id')
      .option('-c, --config <file>', 'pipeline config')
      .option('--state-root <dir>', 'state directory')
      .option('--iteration <n>', 'the iteration the candidate waits in (ids repeat across iterations)', iterationArg)
      .action(async (run: string, cand: string, o: Opts) => {
        const stateDir = await stateDirOf(deps, o);
        deps.stdout(`${await reviewCandidate(deps, stateDir, run, cand, verdict, o.iteration)}\n`);
      });
  }
}
