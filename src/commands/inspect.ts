// Reading commands: `whet status`, `whet show RUN [STAGE]`, `whet diff RUN CAND`. They never write.
import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { formatRun, runView } from '../inspect/run-view.js';
import { formatStatus, listRuns } from '../inspect/status.js';
import { iterationPaths } from '../loop/paths.js';
import { resolveRun } from '../loop/open.js';
import { iterations } from '../runner/next-step.js';
import { stateLayout } from '../state/layout.js';
import type { CliDeps, SetCode } from './deps.js';
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

export function registerInspectCommands(program: Command, deps: CliDeps, _setCode: SetCode): void {
  program
    .command('status')
    .description('every run: target, iteration, last stage, decisions, next step, age')
    .option('-c, --config <file>', 'pipeline config')
    .option('--state-root <dir>', 'state directory')
    .option('--json', 'JSON output')
    .action(async (o: Opts) => {
      const runs = listRuns(await stateDirOf(deps, o), deps.now());
      deps.stdout(o.json ? `${JSON.stringify(runs, null, 2)}\n` : `${formatStatus(runs)}\n`);
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
      if (!stage) {
        const view = runView(runDir);
        deps.stdout(o.json ? `${JSON.stringify(view, null, 2)}\n` : `${formatRun(view)}\n`);
        return;
      }
      const file = STAGE_FILES[stage];
      if (!file) throw new UsageError(`unknown stage "${stage}"; one of ${Object.keys(STAGE_FILES).join(', ')}`);
      const its = iterations(runDir);
      const n = o.iteration ? Number(o.iteration) : its[its.length - 1];
      const path = n ? iterationPaths(runDir, n)[file] : undefined;
      if (!path || !existsSync(path)) throw new UsageError(`run ${runId} has no ${file}.json in iteration ${n ?? '-'}`);
      const text = readFileSync(path, 'utf8');
      if (o.json) deps.stdout(text.endsWith('\n') ? text : `${text}\n`);
      else deps.stdout(`${formatRun({ manifest: undefined, iterations: [pick(runView(runDir).iterations.find((v) => v.iteration === n)!, file)] })}\n${path}\n`);
    });

  program
    .command('diff')
    .description('a candidate’s unified diff against the target')
    .argument('<run>', 'run id')
    .argument('<candidate>', 'candidate id')
    .option('-c, --config <file>', 'pipeline config')
    .option('--state-root <dir>', 'state directory')
    .action(async (run: string, cand: string, o: Opts) => {
      const stateDir = await stateDirOf(deps, o);
      const runDir = stateLayout.runDir(stateDir, resolveRun(stateDir, run));
      for (const n of iterations(runDir).reverse()) {
        const p = iterationPaths(runDir, n).candidates;
        if (!existsSync(p)) continue;
        const c = (JSON.parse(readFileSync(p, 'utf8')).candidates as { id: string; diff: string }[]).find((x) => x.id === cand);
        if (c) {
          deps.stdout(c.diff.endsWith('\n') || c.diff === '' ? c.diff : `${c.diff}\n`);
          return;
        }
      }
      throw new UsageError(`no candidate "${cand}" in run ${run}`);
    });
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
