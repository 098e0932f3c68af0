// The improvement loop's commands: `whet run`, `whet resume`, and one stage on saved state
// (`whet generate | discriminate | gate | learn`).
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { createRun, planRun, resolveRun } from '../loop/open.js';
import { driveLoop, BUILT_IN_STAGES } from '../runner/registry.js';
import { common, EVAL_THRESHOLD_HELP, loopEnv, registerStageCommand, report, STAGE_COMMANDS, threshold, type LoopOpts } from './stage-command.js';
import { STEPS, type Step } from '../loop/next-step.js';
import { acquireStateLock } from '../state/lock.js';
import { numArg, type CliDeps, type SetCode } from '../program/deps.js';
import { stateDirOf } from './state-dir.js';
import { refuseDamagedRun } from '../inspect/refuse-damaged.js';

export function registerLoopCommands(program: Command, deps: CliDeps, setCode: SetCode): void {
  common(program.command('run'))
    .description('the improvement loop: generate → discriminate → evaluate → gate → learn, until a stop rule')
    .option('--mock', 'run on the offline mock engine')
    .option('--apply', 'a run on the mock engine (--mock, or the mock as engine or generator engine in the config) applies a kept candidate to the skill itself (default: to a copy in the state directory)')
    .option('--target <skill>', 'improve this skill instead of the config’s first target')
    .option('--from <stage>', `redo an existing run from a stage (${STEPS.join(', ')}); needs --run`)
    .option('--run <id>', 'the run to redo (with --from)')
    .option('--eval-threshold <score>', EVAL_THRESHOLD_HELP, numArg('--eval-threshold'))
    .action(async (o: LoopOpts) => {
      const e = loopEnv(deps);
      if (o.from) {
        if (!(STEPS as readonly string[]).includes(o.from)) throw new UsageError(`--from must be one of ${STEPS.join(', ')}`);
        const stateDir = await stateDirOf(deps, o);
        const runId = resolveRun(stateDir, o.run);
        await refuseDamagedRun(stateDir, runId, `redo run ${runId} from ${o.from}`);
        await report(deps, stateDir, runId, await driveLoop(e, { stateDir, runId, from: o.from as Step, ...threshold(o) }), o.json, setCode);
        return;
      }
      if (o.run) throw new UsageError('--run names an existing run: use it with --from, or use "whet resume RUN"');
      const plan = await planRun(e, { configPath: o.config, stateRoot: o.stateRoot, mock: o.mock, targetSkill: o.target, apply: o.apply === true, ...threshold(o) });
      const lock = await acquireStateLock(plan.stateDir, `whet run (${plan.manifest.run_id})`, { report: e.log });
      try {
        await createRun(plan, deps.now());
        e.log(`run ${plan.manifest.run_id}: improving ${plan.manifest.target.skill_path}${plan.manifest.mock ? ' on the mock engine' : ''}`);
        if (plan.copyOf) e.log(`the mock engine is not a model (${plan.mockBecause}): this run improves a copy of ${plan.copyOf}, which stays as it is (--apply lets a mock run edit it)`);
        else if (plan.mockBecause) e.log(`the mock engine is not a model (${plan.mockBecause}): ${plan.applyAsked} lets this run's keeps edit ${plan.manifest.target.skill_path} itself`);
        const r = await driveLoop(e, { stateDir: plan.stateDir, runId: plan.manifest.run_id, lockHeld: true });
        await report(deps, plan.stateDir, plan.manifest.run_id, r, o.json, setCode, plan.copyOf);
      } finally {
        await lock.release();
      }
    });

  common(program.command('resume'))
    .description('continue a run from its last handoff (default: the newest run)')
    .argument('[run]', 'run id')
    .action(async (run: string | undefined, o: LoopOpts) => {
      const stateDir = await stateDirOf(deps, o);
      const runId = resolveRun(stateDir, run);
      await refuseDamagedRun(stateDir, runId, `resume run ${runId}`);
      await report(deps, stateDir, runId, await driveLoop(loopEnv(deps), { stateDir, runId }), o.json, setCode);
    });

  for (const step of STAGE_COMMANDS) registerStageCommand(program, step, deps, setCode, BUILT_IN_STAGES);
}
