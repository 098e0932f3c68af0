// `whet schedule run`: one runner in the foreground that starts the nightly command at each due time, for
// machines with no cron or systemd (a container, a dev box). croner's `protect` keeps a night that is
// still running when the next one is due from being started twice: the due run is skipped and logged.
// The runner stops when its signal aborts (Ctrl-C); a command still running then is stopped with it.
import { Cron } from 'croner';
import { describeOutcome, runProcess } from '../core/proc.js';
import { localTime, utcTime } from './cron.js';

export interface RunnerOptions {
  /** Validated cron expression (five fields, or six with seconds). */
  cron: string;
  /** The command started at each due time. */
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  signal?: AbortSignal;
  /** Longest a single run may take before its process tree is killed. */
  timeoutMs: number;
  now?: () => Date;
}

export interface RunnerResult {
  started: number;
  finished: number;
  /** Due times skipped because the previous run was still going. */
  skipped: number;
  failed: number;
}

export async function runScheduler(o: RunnerOptions): Promise<RunnerResult> {
  const result: RunnerResult = { started: 0, finished: 0, skipped: 0, failed: 0 };
  const stamp = () => {
    const d = o.now?.() ?? new Date();
    return `${localTime(d)} (${utcTime(d)})`;
  };
  let inFlight: Promise<void> | undefined;
  const tick = async () => {
    result.started++;
    o.log(`${stamp()} starting: ${o.argv.join(' ')}`);
    const run = runProcess({ argv: o.argv, cwd: o.cwd, env: o.env, timeoutMs: o.timeoutMs, signal: o.signal }).then((r) => {
      result.finished++;
      if (r.exitCode !== 0 || r.spawnError) result.failed++;
      o.log(`${stamp()} finished in ${(r.durationMs / 1000).toFixed(1)}s: ${r.exitCode === 0 && !r.spawnError ? 'exit 0' : describeOutcome(r, o.timeoutMs)}`);
    });
    inFlight = run;
    await run;
  };
  const job = new Cron(o.cron, {
    mode: o.cron.split(' ').length === 6 ? '6-part' : '5-part',
    protect: () => {
      result.skipped++;
      o.log(`${stamp()} due, but the previous run is still going: not starting a second one`);
    },
    catch: (err) => o.log(`${stamp()} could not start: ${(err as Error).message}`),
  }, tick);
  const next = job.nextRun();
  o.log(`schedule "${o.cron}": next run ${next ? `${localTime(next)} (${utcTime(next)})` : 'never'}; Ctrl-C to stop`);
  await new Promise<void>((resolve) => {
    if (!o.signal) return; // No signal: run until the process is killed.
    if (o.signal.aborted) return resolve();
    o.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  job.stop();
  await inFlight;
  return result;
}
