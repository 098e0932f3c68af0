// Cron expressions for the nightly job: what is accepted and refused (with the field named), the next run
// times, and the conversion to systemd's OnCalendar — pinned case by case, and cross-checked against
// systemd's own calendar parser (systemd-analyze) for the next runs of every convertible example.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { describeRuns, nextRuns, parseCron } from '../../src/schedule/cron.js';
import { cronToOnCalendar, expandField } from '../../src/schedule/oncalendar.js';

describe('parseCron', () => {
  it('accepts five fields, names and nicknames, and normalises spacing', () => {
    expect(parseCron('0 3 * * *')).toBe('0 3 * * *');
    expect(parseCron('  30   2 *  * mon-fri ')).toBe('30 2 * * mon-fri');
    expect(parseCron('@daily')).toBe('0 0 * * *');
    expect(parseCron('@WEEKLY')).toBe('0 0 * * 0');
    expect(parseCron('*/15 8-18 1,15 jan-jun *')).toBe('*/15 8-18 1,15 jan-jun *');
  });

  it('refuses what crontab, systemd or GitHub could not run, naming the problem', () => {
    const refuse = (e: string, msg: RegExp) => expect(() => parseCron(e)).toThrow(msg);
    refuse('0 3 * *', /five fields.*got 4/);
    refuse('0 0 3 * * *', /five fields.*got 6/);
    refuse('60 3 * * *', /minute: 60/);
    refuse('0 3 L * *', /"L" is not allowed in the day of month field/);
    refuse('0 3 * * FRI#2', /day of week field "FRI#2" may only use/);
    refuse('0 3 * * funday', /"funday" is not allowed/);
    refuse('0 3 31 2 *', /never fires/);
    refuse('@reboot', /unknown nickname/);
    refuse('0 3 * * ; rm -rf ~', /five fields|may only use/);
  });

  it('accepts a seconds field only where asked (the foreground runner)', () => {
    expect(() => parseCron('*/2 * * * * *')).toThrow(/five fields/);
    expect(parseCron('*/2 * * * * *', { allowSeconds: true })).toBe('*/2 * * * * *');
  });

  it('gives the next runs after a moment, in the machine’s zone and in UTC', () => {
    const from = new Date('2026-11-30T12:00:00Z');
    expect(nextRuns('0 3 * * *', 3, from, 'UTC').map((d) => d.toISOString())).toEqual(['2026-12-01T03:00:00.000Z', '2026-12-02T03:00:00.000Z', '2026-12-03T03:00:00.000Z']);
    expect(nextRuns('0 3 * * *', 1, from, 'Asia/Tokyo')[0]!.toISOString()).toBe('2026-11-30T18:00:00.000Z');
    const line = describeRuns([new Date('2026-12-01T03:00:00Z')])[0]!;
    expect(line).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} \S+ = 2026-12-01 03:00 UTC$/);
  });
});

describe('cron → systemd OnCalendar', () => {
  const cases: [string, string][] = [
    ['0 3 * * *', '*-*-* 03:00:00'],
    ['30 2 * * 1-5', 'Mon..Fri *-*-* 02:30:00'],
    ['30 2 * * mon-fri', 'Mon..Fri *-*-* 02:30:00'],
    ['*/15 * * * *', '*-*-* *:00/15:00'],
    ['0 */6 * * *', '*-*-* 00/6:00:00'],
    ['0 0 1,15 * *', '*-*-01,15 00:00:00'],
    ['5-50/15 3 * * *', '*-*-* 03:05,20,35,50:00'],
    ['0 9 * jan-mar *', '*-01..03-* 09:00:00'],
    ['0 4 * * 0,6', 'Sat,Sun *-*-* 04:00:00'],
    ['0 4 * * 7', 'Sun *-*-* 04:00:00'],
    ['0 4 * * 5-7', 'Fri..Sun *-*-* 04:00:00'],
    ['0 0 */10 * *', '*-*-01/10 00:00:00'],
  ];

  it.each(cases)('%s → %s', (cron, cal) => {
    expect(cronToOnCalendar(cron)).toBe(cal);
  });

  it('refuses a restricted day of month together with a restricted day of week (cron ORs them, systemd ANDs them)', () => {
    expect(() => cronToOnCalendar('0 3 1 * mon')).toThrow(/OR the day of week.*systemd only when both/);
  });

  it('expands stepped ranges and lists exactly', () => {
    expect(expandField('1-10/3,20', { min: 0, max: 59 })).toEqual([1, 4, 7, 10, 20]);
    expect(expandField('*/20', { min: 0, max: 59 })).toEqual([0, 20, 40]);
  });

  it('fires when systemd says the converted calendar fires (systemd-analyze calendar)', () => {
    const probe = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
    expect(probe.error, 'systemd-analyze (Debian package systemd) must be installed').toBeUndefined();
    for (const [cron, cal] of cases) {
      // The two are read a moment apart: at a minute boundary the first run may differ, so compare runs 2..4.
      const sd = spawnSync('systemd-analyze', ['calendar', '--iterations=4', cal], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC', SYSTEMD_COLORS: '0' } });
      expect(sd.status, sd.stderr).toBe(0);
      expect(sd.stdout).toContain(`Normalized form: `);
      const theirs = [...sd.stdout.matchAll(/(?:Next elapse|Iter\. #\d+): \w+ (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) UTC/g)].map((m) => m[1]);
      const ours = nextRuns(cron, 4, new Date(), 'UTC').map((d) => d.toISOString().slice(0, 19).replace('T', ' '));
      expect(theirs.slice(1), `${cron} vs ${cal}`).toEqual(ours.slice(1));
    }
  });
});
