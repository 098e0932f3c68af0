// `whet baseline`, `whet nightly`, `whet prune`.
import type { Command } from 'commander';
import { loadPipeline } from '../config/pipeline.js';
import { parseDuration } from '../config/duration.js';
import { UsageError } from '../core/errors.js';
import { baselineAll } from '../nightly/baseline.js';
import { stateDirOf } from './state-dir.js';
import { runNightly } from '../nightly/nightly.js';
import { falseAlertsWords } from '../nightly/accumulate.js';
import { prune } from '../nightly/prune.js';
import { mergedBaselines, shardTargets } from '../nightly/shard-targets.js';
import { acquireStateLock } from '../state/lock.js';
import { summarizeShard } from '../measure/shard.js';
import { basename, resolve } from 'node:path';
import type { CliDeps, SetCode } from '../program/deps.js';

interface Opts {
  config?: string;
  stateRoot?: string;
  force?: boolean;
  mock?: boolean;
  json?: boolean;
  olderThan?: string;
  dryRun?: boolean;
  shard?: string;
  merge?: string[];
  setReference?: boolean;
}

/** `--shard i/n`: this machine's shard of every target; no verdict and no report until the merge. */
async function runTargetShards(env: Parameters<typeof shardTargets>[0], o: Opts, deps: CliDeps, setCode: SetCode): Promise<void> {
  const r = await shardTargets(env, { ...o, shard: o.shard! });
  if (r.interrupted) return setCode(130);
  deps.stdout(`${r.results.map((x) => (x.interrupted ? '' : summarizeShard(x))).join('\n\n')}\n`);
  setCode(0);
}

export function registerNightlyCommands(program: Command, deps: CliDeps, setCode: SetCode): void {
  const env = () => ({ cwd: deps.cwd, env: deps.env, now: deps.now, log: (l: string) => deps.stderr(`${l}\n`), signal: deps.signal, ...(deps.tty ? { progressOut: deps.stderr } : {}) });
  const targetsCommand = (name: string, description: string, force = 'ignore cached baselines and suites\' checked copies') =>
    program
      .command(name)
      .description(description)
      .option('-c, --config <file>', 'pipeline config (default: ./pipeline.yaml)')
      .option('--state-root <dir>', 'state directory')
      .option('--force', force)
      .option('--mock', 'use the offline mock engine')
      .option('--shard <i/n>', 'run only shard i of n of every target (no verdict; `whet merge` / `whet nightly --merge` adds them up)')
      .option('--json', 'JSON output');
  targetsCommand('baseline', 'standalone evaluation of every target in the config, cached by content + TTL').action(async (o: Opts) => {
      if (o.shard !== undefined) return runTargetShards(env(), o, deps, setCode);
      const r = await baselineAll(env(), o);
      if (r.interrupted) return setCode(130);
      const repeated = (d: string) => r.results.filter((x) => x.target.skillDir === d).length > 1;
      const rows = r.results.map((t) => ({ target: t.target.skillDir, suite: t.target.suitePath, target_key: t.target.key, run_id: t.run_id, verdict: t.artifact.verdict, pass_rate: t.artifact.evaluation.pass_rate, engine_calls: t.artifact.evaluation.engine_calls, cache_hit: t.artifact.evaluation.cache.hit }));
      deps.stdout(o.json ? `${JSON.stringify(rows, null, 2)}\n` : `${rows.map((x) => `${x.target}${repeated(x.target) ? ` [suite ${basename(x.suite)}]` : ''}: pass rate ${x.pass_rate === null ? '—' : x.pass_rate.toFixed(4)}, verdict ${x.verdict}, ${x.engine_calls} engine calls${x.cache_hit ? ' (cached)' : ''}`).join('\n')}\n`);
      setCode(r.results.every((t) => t.artifact.verdict === 'pass') ? 0 : 1);
    });

  // --force stays accepted (older schedules pass it) and is what nightly always does anyway.
  targetsCommand('nightly', 'every task of every target measured fresh (never from the cache) + dated report + trend + drift check; exit 1 on a significant drop', 'accepted for older schedules: nightly never reads cached baselines')
    .option('--merge <dirs...>', 'tonight from the shards of `whet nightly --shard i/n` (directories or .tar.gz) instead of measuring')
    .option('--set-reference', 'make tonight the reference night every later night is compared with (it is otherwise the first night since the skill, suite, engine or settings changed)')
    .addHelpText('after', `\nA drift alert (exit 1): tonight against the previous night, or the evidence of a drop accumulated since the reference night.\nWith the default thresholds.significance 0.05, ${falseAlertsWords(0.05)}.\nwhet plan --nightly states it for your config and its targets.`)
    .action(async (o: Opts) => {
      if (o.shard !== undefined && o.merge) throw new UsageError('--shard runs one shard and --merge adds all of them up; use one');
      if (o.shard !== undefined) return runTargetShards(env(), o, deps, setCode);
      const refuse = await import('../inspect/refuse-damaged.js');
      refuse.refuseDamagedNights(await stateDirOf(deps, o));
      const r = await runNightly(env(), { ...o, setReference: o.setReference === true }, o.merge ? mergedBaselines(o.merge, refuse.refuseDamagedShards) : undefined);
      if (r === 'interrupted') return setCode(130);
      deps.stdout(o.json ? `${JSON.stringify({ date: r.date, file: r.file, alert: r.alert, engine_calls: r.engineCalls, targets: r.targets.map((t) => ({ label: t.label, ...t.summary, drift: t.drift })) }, null, 2)}\n` : `${r.markdown}\nwritten: ${r.file}\n`);
      setCode(r.engineFailed ? 3 : r.alert ? 1 : 0);
    });

  program
    .command('prune')
    .description('remove old runs and expired cache entries (never a run that promoted a candidate, nor its backups)')
    .requiredOption('--older-than <duration>', 'runs last touched longer ago than this, e.g. 30d')
    .option('--dry-run', 'only list what would be removed')
    .option('-c, --config <file>', 'pipeline config')
    .option('--state-root <dir>', 'state directory')
    .option('--json', 'JSON output')
    .action(async (o: Opts) => {
      const ms = parseDuration(o.olderThan ?? '');
      if (ms === undefined) throw new UsageError(`--older-than "${o.olderThan}" is not a duration (e.g. "30d")`);
      const cfg = await loadPipeline(o.config, deps.cwd);
      const stateDir = o.stateRoot ? resolve(deps.cwd, o.stateRoot) : cfg.stateDir;
      const lock = await acquireStateLock(stateDir, 'whet prune');
      try {
        const r = prune(stateDir, { olderThanMs: ms, cacheTtlMs: cfg.cacheTtlMs, cacheDir: cfg.cacheDir, now: deps.now(), dryRun: !!o.dryRun });
        if (o.json) deps.stdout(`${JSON.stringify(r, null, 2)}\n`);
        else {
          const verb = r.dry_run ? 'would remove' : 'removed';
          deps.stdout(`${verb} ${r.removed_runs.length} run(s)${r.removed_runs.length ? `: ${r.removed_runs.join(', ')}` : ''}\n${verb} ${r.removed_cache.length} expired cache entr${r.removed_cache.length === 1 ? 'y' : 'ies'}\n${r.removed_mock_copies.length ? `${verb} ${r.removed_mock_copies.length} mock cop${r.removed_mock_copies.length === 1 ? 'y' : 'ies'} (state/mock-copies/) of runs removed or gone\n` : ''}kept ${r.kept_promoted.length} run(s) that promoted a candidate${r.kept_promoted.length ? `: ${r.kept_promoted.join(', ')}` : ''}\n`);
        }
      } finally {
        await lock.release();
      }
    });
}
