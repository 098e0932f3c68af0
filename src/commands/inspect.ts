// Reading commands: `whet status`, `whet show RUN [STAGE]`, `whet diff RUN CAND`. They never write.
import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { checkIdFlag, checkIterationFlag } from '../config/safe-id.js';
import { UsageError } from '../core/errors.js';
import { findCandidate, formatCandidates, iterationsWith } from '../inspect/candidates-view.js';
import { formatRun, runView } from '../inspect/run-view.js';
import { formatStatus, listRuns, liveStatus, olderRuns, resumeHint, STATUS_NEWEST } from '../inspect/status.js';
import { runIds } from '../inspect/verify-state.js';
import { iterationPaths } from '../loop/paths.js';
import { resolveRun } from '../loop/resolve-run.js';
import { iterations } from '../loop/iterations.js';
import { stateLayout } from '../state/layout.js';
import { verifyRun } from '../inspect/verify-run.js';
import { formatProblems } from '../state/verify-files.js';
import type { CliDeps, SetCode } from '../program/deps.js';
import { stateDirOf } from './state-dir.js';

const STAGE_FILES: Record<string, 'baseline' | 'candidates' | 'ranking' | 'evaluation' | 'gate' | 'learning'> = {
  baseline: 'baseline',
  generate: 'candidates',
  candidates: 'candidates',
  discriminate: 'ranking',
  ranking: 'ranking',
  evaluate: 'evaluation',
  evaluation: 'evaluation',
  gate: 'gate',
  learn: 'learning',
  learning: 'learning',
};

interface Opts {
  config?: string;
  stateRoot?: string;
  json?: boolean;
  iteration?: string;
}

export function registerInspectCommands(program: Command, deps: CliDeps, setCode: SetCode): void {
  program
    .command('status')
    .description('the newest runs (every run with --all): target, iteration, last stage, decisions, next step, age')
    .option('-c, --config <file>', 'pipeline config')
    .option('--state-root <dir>', 'state directory')
    .option('--all', `every run, not only the newest ${STATUS_NEWEST}`)
    .option('--json', 'JSON output (every run, as with --all)')
    .action(async (o: Opts & { all?: boolean }) => {
      const stateDir = await stateDirOf(deps, o);
      // At 10,000 runs, every run is 20,000 lines and seconds of reading: the newest, and a count of the rest.
      const ids = runIds(stateDir);
      const shown = o.all || o.json ? ids : ids.slice(-STATUS_NEWEST);
      const runs = await listRuns(stateDir, deps.now(), shown);
      deps.stdout(o.json ? `${JSON.stringify(runs, null, 2)}\n` : `${olderRuns(ids.length - shown.length)}${formatStatus(runs)}\n`);
      // A damaged state directory is not a clean answer (issue 31): exit 1, as `whet verify` does.
      if (runs.some((r) => r.problems.length)) setCode(1);
    });

  program
    .command('show')
    .description('a readable summary of a run, or of one stage’s artifact')
    .argument('[run]', 'run id (default: the newest loop run)')
    .argument('[stage]', 'baseline | generate | discriminate | evaluate | gate | learn')
    .option('--iteration <n>', 'which iteration (default: the newest)')
    .option('-c, --config <file>', 'pipeline config')
    .option('--state-root <dir>', 'state directory')
    .option('--json', 'JSON output (the artifact itself for a stage)')
    .action(async (run: string | undefined, stage: string | undefined, o: Opts) => {
      const stateDir = await stateDirOf(deps, o);
      const runId = resolveRun(stateDir, run);
      const runDir = stateLayout.runDir(stateDir, runId);
      const check = await verifyRun(stateDir, runId, { now: deps.now() });
      if (check.problems.length) setCode(1);
      if (!stage) {
        const view = runView(runDir, check);
        // run.json says running, but no live process holds the run (kill -9, a reboot): say interrupted.
        const live = view.manifest ? liveStatus(stateDir, runId, String(view.manifest.status)) : undefined;
        if (view.manifest && live?.because) view.manifest = { ...view.manifest, status: live.status, interrupted_because: live.because, resume_hint: resumeHint(runId, String(view.manifest.mode)) };
        deps.stdout(o.json ? `${JSON.stringify(view, null, 2)}\n` : `${formatRun(view)}\n`);
        return;
      }
      const file = STAGE_FILES[stage];
      if (!file) throw new UsageError(`unknown stage "${stage}"; one of ${Object.keys(STAGE_FILES).join(', ')}`);
      const its = iterations(runDir);
      // Default to the newest iteration that has this artifact: a run that stopped after learn has no gate
      // (or evaluation) in its last iteration, and "show me the gate" means the last gate there was.
      const have = iterationsWith(runDir, file);
      const n = o.iteration !== undefined ? iterationOpt(o.iteration) : have[have.length - 1];
      const path = n ? iterationPaths(runDir, n)[file] : undefined;
      if (!path || !existsSync(path)) {
        const where = have.length ? `; iteration(s) with one: ${have.join(', ')}` : ` in any of its ${its.length} iteration(s)`;
        throw new UsageError(`run ${runId} has no ${file}.json${o.iteration !== undefined ? ` in iteration ${n}` : ''}${where}`);
      }
      if (check.damaged.has(path)) {
        // Its values are never shown as if measured: the problem instead, and exit 1.
        deps.stderr(formatProblems(check.problems.filter((p) => p.path === path)));
        return;
      }
      const text = readFileSync(path, 'utf8');
      if (o.json) return deps.stdout(text.endsWith('\n') ? text : `${text}\n`);
      const newest = its[its.length - 1];
      const note = o.iteration === undefined && n !== newest ? `(iteration ${n}: the newest with a ${file}.json; the run has ${its.length})\n` : '';
      const view = file === 'candidates' ? undefined : runView(runDir, { ...check, problems: [] });
      const body = view ? formatRun({ manifest: undefined, iterations: [pick(view.iterations.find((v) => v.iteration === n)!, file)], rolled_back_at: view.rolled_back_at, totals: view.totals }) : formatCandidates(JSON.parse(text), n!);
      deps.stdout(`${note}${body}\n${path}\n`);
    });

  program
    .command('diff')
    .description('a candidate’s unified diff against the target')
    .argument('<run>', 'run id')
    .argument('<candidate>', 'candidate id')
    .option('--iteration <n>', 'which iteration’s candidate (ids recur across iterations; default: the newest that has it)')
    .option('-c, --config <file>', 'pipeline config')
    .option('--state-root <dir>', 'state directory')
    .option('--json', 'JSON: the iteration, the candidate’s id, title, category, risk, diff and the iterations that have it')
    .action(async (run: string, cand: string, o: Opts) => {
      const stateDir = await stateDirOf(deps, o);
      const runId = resolveRun(stateDir, run);
      checkIdFlag(cand, 'candidate');
      const runDir = stateLayout.runDir(stateDir, runId);
      const wanted = o.iteration !== undefined ? iterationOpt(o.iteration) : undefined;
      const check = await verifyRun(stateDir, runId, { now: deps.now() });
      const bad = check.problems.filter((p) => p.path.endsWith('candidates.json'));
      if (bad.length) {
        // A damaged candidates.json is left out: a candidate is only found in one that verifies.
        deps.stderr(formatProblems(bad));
        setCode(1);
      }
      const found = findCandidate(runDir, cand, wanted, check.damaged);
      if (!found) {
        const elsewhere = wanted !== undefined ? findCandidate(runDir, cand) : undefined;
        throw new UsageError(`no candidate "${cand}" in run ${runId}${wanted !== undefined ? ` iteration ${wanted}` : ''}${elsewhere ? `; it is in iteration(s) ${elsewhere.all.join(', ')}` : ''}`);
      }
      const c = found.candidate;
      const diff = String(c.diff ?? '');
      if (o.json) {
        const out = { run: runId, iteration: found.iteration, iterations: found.all, id: c.id, title: c.title, category: c.category, risk: c.risk, diff_stats: c.diff_stats, diff };
        return deps.stdout(`${JSON.stringify(out, null, 2)}\n`);
      }
      // On stderr, so stdout stays a patch that applies as it is.
      const others = found.all.filter((n) => n !== found.iteration);
      deps.stderr(`whet diff: ${c.id} of iteration ${found.iteration}${others.length ? ` (also in iteration(s) ${others.join(', ')}: pass --iteration N)` : ''}\n`);
      deps.stdout(diff.endsWith('\n') || diff === '' ? diff : `${diff}\n`);
    });
}

/** --iteration N: a positive whole number, or a usage error (Number('') would quietly be 0). */
function iterationOpt(v: string): number {
  return checkIterationFlag(v);
}

/** The part of an iteration view one stage is about. */
function pick(v: ReturnType<typeof runView>['iterations'][number], file: string) {
  const keep = { iteration: v.iteration, last_stage: v.last_stage, candidates: [] as typeof v.candidates };
  if (file === 'baseline') return { ...keep, baseline: v.baseline };
  if (file === 'candidates') return { ...keep, candidates: v.candidates };
  if (file === 'ranking') return { ...keep, candidates: v.candidates, ranking: v.ranking };
  if (file === 'evaluation') return { ...keep, evaluation: v.evaluation };
  if (file === 'gate') return { ...keep, gate: v.gate };
  return { ...keep, learning: v.learning };
}
