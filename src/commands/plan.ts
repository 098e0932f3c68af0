// `whet plan`: before any run, what the suite can find on this engine (issue 27 §4;
// docs/method.md: The plan) — attempts per held-out task, engine calls and cost, and the power for
// thresholds.min_effect.
// The skill and suite are the flags', else pipeline.yaml's first target's. Spends nothing unless told:
// `--pilot` measures the baseline first when none is cached (the run that follows reads it from the cache).
import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { CliDeps, SetCode } from '../program/deps.js';
import { intArg } from '../program/deps.js';
import { UsageError } from '../core/errors.js';
import { lacking, loadPipeline } from '../config/pipeline.js';
import { expandTargets } from '../config/targets.js';
import { prepare } from '../measure/setup.js';
import { planReport, planReportWithGuard, planText } from '../measure/plan-report.js';
import { readSkill } from '../skill/read.js';
import * as stage from '../../stages/evaluate/index.js';
import { CUSUM_H, CUSUM_K, falseAlertsPer30, falseAlertsWords, IN_CONTROL_NIGHTS, nightSignificance } from '../nightly/accumulate.js';

/** `whet plan --nightly`: what a night tests and how many false alerts a month of unchanged nights gives. */
function nightlyPlan(significance: number, targets: number, json: boolean): string {
  const f = falseAlertsPer30(significance);
  if (json) return `${JSON.stringify({ night_significance: nightSignificance(significance), cusum: { k: CUSUM_K, h: CUSUM_H, in_control_nights: IN_CONTROL_NIGHTS }, false_alerts_per_30_nights: { per_target: f, targets, all_targets: Math.round(f.total * targets * 100) / 100 } }, null, 2)}\n`;
  return [
    'nightly drift design (whet nightly; docs/guides/nightly-and-drift.md):',
    `  tonight against the previous night: on a noisy engine the paired drop test at ${Number(nightSignificance(significance).toPrecision(3))} per night (a fifth of thresholds.significance ${significance}); a deterministic engine keeps ${significance} (nothing flips when nothing changed)`,
    `  tonight against the reference night (the first since the skill, suite, engine or settings changed, or whet nightly --set-reference): a CUSUM of the drop, K ${CUSUM_K}, H ${CUSUM_H}`,
    `  ${falseAlertsWords(significance, targets)}`,
    '',
  ].join('\n');
}

interface PlanOpts {
  taskSuite?: string;
  skillPath?: string;
  config?: string;
  stateRoot?: string;
  mock?: boolean;
  passK?: number;
  pilot?: boolean;
  json?: boolean;
  nightly?: boolean;
}

export function registerPlanCommand(program: Command, deps: CliDeps, setCode: SetCode): void {
  program
    .command('plan')
    .description('before a run: attempts per held-out task, engine calls and cost, and the power to find thresholds.min_effect')
    .option('--task-suite <file>', 'the task suite (default: the first target of pipeline.yaml)')
    .option('--skill-path <dir>', 'the skill folder or its SKILL.md (default: the first target of pipeline.yaml)')
    .option('--pass-k <n>', 'attempts per task in the first measurement', intArg('--pass-k'))
    .option('--pilot', 'measure the baseline first when none is cached (engine calls; the run then reads it from the cache)')
    .option('--mock', 'plan for the offline mock engine')
    .option('-c, --config <file>', 'pipeline config (default: ./pipeline.yaml when present)')
    .option('--state-root <dir>', 'state directory')
    .option('--json', 'JSON output')
    .option('--nightly', 'the nightly drift design instead: its tests and the false alerts to expect per 30 nights, per target and over the config\'s targets')
    .action(async (o: PlanOpts) => {
      const cfg = await loadPipeline(o.config, deps.cwd);
      if (o.nightly) return deps.stdout(nightlyPlan(cfg.thresholds.significance, expandTargets(cfg).length, o.json === true));
      let taskSuite = o.taskSuite;
      let skillPath = o.skillPath;
      if (!taskSuite || !skillPath) {
        const first = expandTargets(cfg)[0];
        if (!first) throw new UsageError(lacking(cfg, 'whet plan needs --task-suite and --skill-path, or a target in pipeline.yaml'));
        taskSuite ??= first.suitePath;
        skillPath ??= first.skillDir;
      }
      const ctx = {
        cwd: deps.cwd,
        env: deps.env,
        now: deps.now,
        log: (line: string) => deps.stderr(`${line}\n`),
        signal: deps.signal,
        source: { taskSuite: resolve(deps.cwd, taskSuite), config: o.config, stateRoot: o.stateRoot, mock: o.mock },
        settings: { passK: o.passK },
      };
      const req = { mode: 'standalone' as const, skillPath: resolve(deps.cwd, skillPath) };
      const skill = readSkill(req.skillPath);
      let prepared = await prepare(ctx);
      // Whether a pilot is wanted needs only where the chances come from: the plan without its attempts search.
      const first = o.pilot ? planReport(prepared, skill, deps.now(), false) : undefined;
      if (first && !first.deterministic && first.chances_from.startsWith('assumed')) {
        // The pilot is the baseline the run would measure first: measured once, cached, read back.
        const r = await stage.run(ctx, req);
        if (r.interrupted) {
          deps.stdout(`${stage.summarize(r)}\n`);
          setCode(stage.exitCodeOf(r));
          return;
        }
        prepared = await prepare(ctx);
      }
      // The regression guard's rounds are simulated once, at the chances the plan ends with.
      const report = await planReportWithGuard(prepared, skill, deps.now());
      deps.stdout(o.json ? `${JSON.stringify(report, null, 2)}\n` : `${planText(report)}\n`);
    });
}
