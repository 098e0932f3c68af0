// What each scheduler is given to run `whet nightly -c CONFIG` in the project folder: a crontab entry, a
// systemd user service + timer pair, or a GitHub Actions workflow. Every piece starts with the marker
// `# whetstone nightly <project>` so install can find its own entry again (and replace it rather than add
// a second) and remove can take away exactly what install wrote and nothing else.
import { createHash } from 'node:crypto';
import { cronToOnCalendar } from './oncalendar.js';

export interface ScheduleTarget {
  /** Absolute: the folder of the pipeline config; the job runs there. */
  projectDir: string;
  /** Absolute path of the pipeline config. */
  configPath: string;
  /** Absolute state directory (from the config), for the log and the CI cache. */
  stateDir: string;
  /** How to start whet: absolute node and cli.js, so cron's and systemd's bare PATH do not matter. */
  whetArgv: string[];
  /** Five-field cron expression, validated. */
  cron: string;
  /** Environment variables the config's API engines read their keys from (the CI workflow passes them). */
  keyEnvs?: string[];
}

export const marker = (projectDir: string) => `# whetstone nightly ${projectDir}`;

/** What each night costs, said wherever a schedule is shown: the nightly is a full measurement every time. */
export const NIGHTLY_CALLS_NOTE =
  '# each night calls the engine for every task of every target: whet nightly never reads the baseline cache (it only refreshes it for the loop), so a model changing behind the same config is measured';

/** The nightly command: `<whet> nightly -c <config>`. */
export const nightlyArgv = (t: ScheduleTarget) => [...t.whetArgv, 'nightly', '-c', t.configPath];

/** POSIX shell single quotes; cron also reads an unescaped % as a line break, so it is escaped too. */
export function cronQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`.replace(/%/g, '\\%');
}

/** The two crontab lines: the marker, then the entry (output appended to a log beside the nightly reports). */
export function crontabBlock(t: ScheduleTarget): string {
  const logDir = `${t.stateDir}/nightly`;
  const cmd = [
    `mkdir -p ${cronQuote(logDir)}`,
    `cd ${cronQuote(t.projectDir)}`,
    `${nightlyArgv(t).map(cronQuote).join(' ')} >> ${cronQuote(`${logDir}/cron.log`)} 2>&1`,
  ].join(' && ');
  return `${marker(t.projectDir)}\n${t.cron} ${cmd}\n`;
}

/** A unit name per project, so two projects on one machine get two timers. */
export function unitName(projectDir: string): string {
  return `whetstone-nightly-${createHash('sha256').update(projectDir).digest('hex').slice(0, 10)}`;
}

/** systemd's command-line quoting: % and $ are specifiers and variables, so they are doubled. */
export function systemdQuote(s: string): string {
  const escaped = s.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return /[\s"'\\;]/.test(escaped) || escaped === '' ? `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : escaped;
}

export function systemdUnits(t: ScheduleTarget): { name: string; service: string; timer: string; onCalendar: string } {
  const name = unitName(t.projectDir);
  const onCalendar = cronToOnCalendar(t.cron);
  const desc = `whetstone nightly evaluation of ${t.projectDir}`.replace(/%/g, '%%');
  const service = [
    marker(t.projectDir),
    '[Unit]',
    `Description=${desc}`,
    '',
    '[Service]',
    NIGHTLY_CALLS_NOTE,
    'Type=oneshot',
    `WorkingDirectory=${systemdQuote(t.projectDir)}`,
    `ExecStart=${nightlyArgv(t).map(systemdQuote).join(' ')}`,
    '',
  ].join('\n');
  const timer = [
    marker(t.projectDir),
    `# from cron "${t.cron}"`,
    '[Unit]',
    `Description=${desc} (timer)`,
    '',
    '[Timer]',
    `OnCalendar=${onCalendar}`,
    // A night missed while the machine was off runs at the next boot instead of being skipped silently.
    'Persistent=true',
    `Unit=${name}.service`,
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ].join('\n');
  return { name, service, timer, onCalendar };
}
