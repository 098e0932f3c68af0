// `whet verify [RUN…] [--repair] [--json]`: checks a state directory — every run's manifest, artifacts,
// results logs, events, variants and backups, the baseline cache, the nightly records, the lessons log and
// the lock — and names each problem with its file and what to do: exit 0 clean, 1 damaged (issue 31). CI
// runs it after restoring a cached state. `--repair` (under the state lock) moves damaged files to superseded/ so `whet resume`
// measures again what they held, and rebuilds a lost run.json from the run's events.
import type { Command } from 'commander';
import { checkIdFlag } from '../config/safe-id.js';
import { UsageError } from '../core/errors.js';
import { formatProblems } from '../state/verify-files.js';
import { runIds, verifyState, type StateCheck } from '../inspect/verify-state.js';
import { repairOutcome } from '../inspect/verify-run.js';
import { repairState, type RepairReport } from '../runner/repair.js';
import { acquireStateLock } from '../state/lock.js';
import type { CliDeps, SetCode } from '../program/deps.js';
import { stateDirOf } from './state-dir.js';

interface Opts {
  config?: string;
  stateRoot?: string;
  json?: boolean;
  repair?: boolean;
}

const problemsOf = (c: StateCheck) => [...c.runs.flatMap((r) => r.problems), ...c.shared];

function summary(c: StateCheck): string {
  const n = problemsOf(c).length;
  const runs = c.runs.filter((r) => r.problems.length).length;
  return n ? `${n} problem(s) in ${runs} of ${c.runs.length} run(s)${c.shared.length ? ` and ${c.shared.length} in shared files` : ''}` : `clean: ${c.runs.length} run(s) and the shared files verified`;
}

const jsonOf = (c: StateCheck) => ({
  clean: problemsOf(c).length === 0,
  runs: c.runs.map((r) => ({ run_id: r.runId, problems: r.problems.map(({ path: _path, ...p }) => p) })),
  shared: c.shared.map(({ path: _path, ...p }) => p),
});

export function registerVerifyCommand(program: Command, deps: CliDeps, setCode: SetCode): void {
  program
    .command('verify')
    .description('check a state directory (runs, artifacts, results logs, events, backups, cache, nightly records, lock): exit 0 clean, 1 damaged')
    .argument('[runs...]', 'run ids (default: every run and the files runs share)')
    .option('--repair', 'move damaged files to superseded/ so "whet resume" measures them again, rebuild a lost run.json from its events (takes the state lock)')
    .option('--json', 'JSON output')
    .option('-c, --config <file>', 'pipeline config')
    .option('--state-root <dir>', 'state directory')
    .action(async (runs: string[], o: Opts) => {
      const stateDir = await stateDirOf(deps, o);
      const known = new Set(runIds(stateDir));
      for (const r of runs) {
        checkIdFlag(r, 'run');
        if (!known.has(r)) throw new UsageError(`no run "${r}" in ${stateDir}`);
      }
      let before = await verifyState(stateDir, runs, deps.now());
      let repaired: RepairReport | undefined;
      let after = before;
      if (o.repair && problemsOf(before).length) {
        const lock = await acquireStateLock(stateDir, `whet verify --repair`);
        try {
          // Checked again under the lock: what was found before it may have been a writer's work in progress.
          before = await verifyState(stateDir, runs, deps.now());
          if (problemsOf(before).length) repaired = await repairState(stateDir, before, deps.now());
        } finally {
          await lock.release();
        }
        after = await verifyState(stateDir, runs, deps.now());
      }
      if (o.json) deps.stdout(`${JSON.stringify({ ...jsonOf(before), ...(repaired ? { repaired, after: jsonOf(after) } : {}) }, null, 2)}\n`);
      else {
        const out = [formatProblems(problemsOf(before)), `${stateDir}: ${summary(before)}\n`];
        if (repaired) {
          out.push(...repaired.done.map((d) => `repaired ${d}\n`), ...repaired.left.map((d) => `NOT repaired ${d}\n`));
          out.push(`after repair: ${summary(after)}\n`, formatProblems(problemsOf(after)));
          // Only a loop run's moved artifacts are measured again by resume: not mended lines, a rebuilt
          // run.json, a standalone run's files or the nightly records.
          const resumable = before.runs.filter((r) => r.problems.some((p) => repairOutcome(r.runId, p) === 'resume')).map((r) => `"whet resume ${r.runId}"`);
          if (resumable.length) out.push(`then ${resumable.join(', ')} measures again what was moved aside\n`);
        }
        deps.stdout(out.join(''));
      }
      if (problemsOf(after).length) setCode(1);
    });
}
