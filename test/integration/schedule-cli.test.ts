// `whet schedule` against fake schedulers: a fake `crontab` keeping the table in a file, a fake `systemctl`
// logging its calls, and HOME / XDG_CONFIG_HOME pointed at temp folders — never the machine's own. Proves
// install is idempotent, remove gives back a pre-existing crontab byte for byte and touches nothing else,
// refusals write nothing, and `schedule run` never starts a second run while one is still going.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unitName } from '../../src/schedule/units.js';
import { fixturesBin, readJson, tempDir, whetBin, write } from '../support/cli.js';
import { runCommand } from '../fixtures/report/cli.js';

function project() {
  const dir = tempDir('whet-sched-');
  write(join(dir, 'proj', 'pipeline.yaml'), 'state_dir: state\n');
  const env = {
    ...process.env,
    PATH: `${fixturesBin}:${process.env.PATH}`,
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'xdg'),
    WHET_FAKE_CRONTAB: join(dir, 'crontab.txt'),
    WHET_FAKE_SYSTEMCTL_LOG: join(dir, 'systemctl.log'),
  };
  const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : undefined);
  return { dir, cwd: join(dir, 'proj'), env, table: () => read(env.WHET_FAKE_CRONTAB), calls: () => read(`${env.WHET_FAKE_CRONTAB}.calls`) ?? '', systemctl: () => read(env.WHET_FAKE_SYSTEMCTL_LOG) ?? '' };
}

describe('whet schedule --via cron (fake crontab)', () => {
  it('installs once, leaves a second install unchanged, and remove gives back the old table byte for byte', async () => {
    const p = project();
    const original = '# backups\nMAILTO=""\nSHELL=/bin/bash\n*/10 * * * * /usr/local/bin/sync --limit 90\\% >/dev/null 2>&1\n\n@reboot /usr/bin/true\n';
    writeFileSync(p.env.WHET_FAKE_CRONTAB, original);
    const first = await runCommand(['schedule', 'install'], { cwd: p.cwd, env: p.env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`crontab: whetstone entry for ${p.cwd} added`);
    const installed = p.table()!;
    expect(installed.startsWith(original)).toBe(true);
    expect(installed.slice(original.length)).toMatch(new RegExp(`^# whetstone nightly ${p.cwd}\n0 3 \\* \\* \\* mkdir -p .* 'nightly' '-c' '${p.cwd}/pipeline.yaml' >> .*\n$`));
    const second = await runCommand(['schedule', 'install'], { cwd: p.cwd, env: p.env });
    expect(second.stdout).toContain('unchanged');
    expect(p.table()).toBe(installed);
    expect(p.calls()).toBe('-l\n-\n-l\n');
    const moved = await runCommand(['schedule', 'install', '--at', '45 4 * * *'], { cwd: p.cwd, env: p.env });
    expect(moved.stdout).toContain('replaced');
    expect(p.table()!.match(/# whetstone nightly/g)).toHaveLength(1);
    expect(p.table()).toContain('\n45 4 * * * mkdir');
    // The synopsis's `remove --at …`: accepted, and it removes the entry install wrote at another time too.
    const removed = await runCommand(['schedule', 'remove', '--at', '0 3 * * *'], { cwd: p.cwd, env: p.env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('removed');
    expect(p.table()).toBe(original);
    const again = await runCommand(['schedule', 'remove'], { cwd: p.cwd, env: p.env });
    expect(again.stdout).toContain('nothing removed');
    expect(p.table()).toBe(original);
  });

  it('leaves a user who had no crontab with none after install then remove', async () => {
    const p = project();
    expect((await runCommand(['schedule', 'install', '--at', '@daily'], { cwd: p.cwd, env: p.env })).code).toBe(0);
    expect(p.table()).toMatch(/^# whetstone nightly .*\n0 0 \* \* \* /);
    expect((await runCommand(['schedule', 'remove'], { cwd: p.cwd, env: p.env })).code).toBe(0);
    expect(p.table()).toBeUndefined();
    expect(p.calls().trim().split('\n').pop()).toBe('-r');
  });

  it('refuses a bad expression or a missing config before touching the crontab', async () => {
    const p = project();
    const bad = await runCommand(['schedule', 'install', '--at', '0 25 * * *'], { cwd: p.cwd, env: p.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--at "0 25 \* \* \*".*hour/);
    const noConfig = await runCommand(['schedule', 'install', '-c', 'missing.yaml'], { cwd: p.cwd, env: p.env });
    expect(noConfig.code).toBe(2);
    expect(p.calls()).toBe('');
  });

  it('prints the entry with the next three runs in local time and UTC, writing nothing', async () => {
    const p = project();
    const r = await runCommand(['schedule', 'print', '--at', '0 3 * * *'], { cwd: p.cwd, env: p.env, now: () => new Date('2026-11-30T12:00:00Z') });
    expect(r.code, r.stderr).toBe(0);
    const runs = r.stdout.split('\n').filter((l) => l.startsWith('#   '));
    expect(runs).toHaveLength(3);
    for (const l of runs) expect(l).toMatch(/^# {3}\d{4}-\d{2}-\d{2} \d{2}:\d{2} \S+ = \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    expect(r.stdout).toContain(`# whetstone nightly ${p.cwd}\n0 3 * * * `);
    expect(p.calls()).toBe('');
  });

  it('says in each scheduler output that each night calls the engine for every task (no cache)', async () => {
    const p = project();
    for (const via of ['cron', 'systemd', 'github']) {
      const r = await runCommand(['schedule', 'print', '--via', via, ...(via === 'github' ? ['--package', '@team/whetstone@0.1.0'] : [])], { cwd: p.cwd, env: p.env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('# each night calls the engine for every task of every target: whet nightly never reads the baseline cache');
      expect(r.stdout).not.toMatch(/nightly[^\n]*(from|served by|reuses) the (baseline )?cache/i);
    }
    const gh = await runCommand(['schedule', 'print', '--via', 'github', '--package', '@team/whetstone@0.1.0'], { cwd: p.cwd, env: p.env });
    expect(gh.stdout).toContain('the baseline cache inside\n# it serves whet run / whet baseline, never whet nightly.');
  });
});

describe('whet schedule --via systemd (fake systemctl, temp XDG_CONFIG_HOME)', () => {
  it('writes both units, reloads and enables the timer; a second install changes nothing; remove undoes exactly that', async () => {
    const p = project();
    const unitDir = join(p.env.XDG_CONFIG_HOME, 'systemd', 'user');
    mkdirSync(unitDir, { recursive: true });
    writeFileSync(join(unitDir, 'mine.timer'), '[Timer]\nOnCalendar=daily\n');
    const name = unitName(p.cwd);
    const r = await runCommand(['schedule', 'install', '--via', 'systemd', '--at', '30 2 * * 1-5'], { cwd: p.cwd, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(unitDir, `${name}.timer`), 'utf8')).toContain('OnCalendar=Mon..Fri *-*-* 02:30:00\n');
    expect(readFileSync(join(unitDir, `${name}.service`), 'utf8')).toContain(`nightly -c ${p.cwd}/pipeline.yaml`);
    expect(p.systemctl()).toBe(`--user daemon-reload\n--user enable --now ${name}.timer\n`);
    const again = await runCommand(['schedule', 'install', '--via', 'systemd', '--at', '30 2 * * 1-5'], { cwd: p.cwd, env: p.env });
    expect(again.stdout).toContain(`${name}.service unchanged, ${name}.timer unchanged`);
    const rm = await runCommand(['schedule', 'remove', '--via', 'systemd'], { cwd: p.cwd, env: p.env });
    expect(rm.code, rm.stderr).toBe(0);
    expect(existsSync(join(unitDir, `${name}.timer`)) || existsSync(join(unitDir, `${name}.service`))).toBe(false);
    expect(readFileSync(join(unitDir, 'mine.timer'), 'utf8')).toBe('[Timer]\nOnCalendar=daily\n');
    expect(p.systemctl().split('\n').slice(-3)).toEqual([`--user disable --now ${name}.timer`, '--user daemon-reload', '']);
    expect(existsSync(p.env.HOME)).toBe(false);
  });

  it('uses ~/.config without XDG_CONFIG_HOME, and still removes its files when systemctl cannot disable', async () => {
    const p = project();
    const env = { ...p.env, XDG_CONFIG_HOME: '' };
    expect((await runCommand(['schedule', 'install', '--via', 'systemd'], { cwd: p.cwd, env })).code).toBe(0);
    const timer = join(p.env.HOME, '.config', 'systemd', 'user', `${unitName(p.cwd)}.timer`);
    expect(existsSync(timer)).toBe(true);
    const rm = await runCommand(['schedule', 'remove', '--via', 'systemd'], { cwd: p.cwd, env: { ...env, WHET_FAKE_SYSTEMCTL_FAIL: 'disable' } });
    expect(rm.code).toBe(0);
    expect(rm.stderr).toMatch(/disable --now .* failed/);
    expect(existsSync(timer)).toBe(false);
    const noBus = await runCommand(['schedule', 'install', '--via', 'systemd'], { cwd: p.cwd, env: { ...env, WHET_FAKE_SYSTEMCTL_FAIL: 'enable' } });
    expect(noBus.code).toBe(3);
    expect(noBus.stderr).toMatch(/enable --now .* failed[\s\S]*whet schedule remove --via systemd/);
  });

  it('refuses to replace a unit it did not write, and a schedule systemd cannot express', async () => {
    const p = project();
    const unitDir = join(p.env.XDG_CONFIG_HOME, 'systemd', 'user');
    const foreign = write(join(unitDir, `${unitName(p.cwd)}.service`), '[Service]\nExecStart=/bin/true\n');
    const r = await runCommand(['schedule', 'install', '--via', 'systemd'], { cwd: p.cwd, env: p.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not written by whet schedule/);
    expect(readFileSync(foreign, 'utf8')).toBe('[Service]\nExecStart=/bin/true\n');
    const both = await runCommand(['schedule', 'print', '--via', 'systemd', '--at', '0 3 1 * mon'], { cwd: p.cwd, env: p.env });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/systemd only when both/);
    expect(p.systemctl()).toBe('');
  });
});

describe('whet schedule --via github', () => {
  it('writes the workflow into the repository once and removes only its own file', async () => {
    const p = project();
    mkdirSync(join(p.dir, '.git'));
    const wf = join(p.dir, '.github', 'workflows', 'whetstone-nightly.yml');
    const printed = await runCommand(['schedule', 'print', '--via', 'github', '--package', '@team/whetstone@0.1.0'], { cwd: p.cwd, env: p.env });
    expect(printed.stdout).toContain('(UTC, as GitHub reads it)');
    expect(existsSync(wf)).toBe(false);
    expect((await runCommand(['schedule', 'install', '--via', 'github', '--package', '@team/whetstone@0.1.0'], { cwd: p.cwd, env: p.env })).stdout).toContain(`${wf} written`);
    // This project has no package.json listing whetstone: the job installs the --package spec, then runs whet itself.
    expect(readFileSync(wf, 'utf8')).toContain('npm install -g "$WHETSTONE_PACKAGE"');
    expect(readFileSync(wf, 'utf8')).toMatch(/^ {10}whet nightly -c 'pipeline\.yaml'$/m);
    // No API engine in this config: only the default key variables are passed.
    expect(readFileSync(wf, 'utf8')).not.toContain('GATEWAY_KEY');
    expect((await runCommand(['schedule', 'install', '--via', 'github', '--package', '@team/whetstone@0.1.0'], { cwd: p.cwd, env: p.env })).stdout).toContain(`${wf} unchanged`);
    expect((await runCommand(['schedule', 'remove', '--via', 'github', '--at', '0 3 * * *'], { cwd: p.cwd, env: p.env })).stdout).toContain(`${wf} removed`);
    expect(existsSync(wf)).toBe(false);
  });
});

describe('whet schedule --via github, engine keys', () => {
  it('passes the key variable each API engine of the config names, from secrets', async () => {
    const p = project();
    mkdirSync(join(p.dir, '.git'));
    write(join(p.cwd, 'pipeline.yaml'), 'state_dir: state\nengine: {type: openai, model: m, api_key_env: GATEWAY_KEY}\njudge_engine: {type: anthropic, model: j, api_key_env: JUDGE_KEY}\n');
    const r = await runCommand(['schedule', 'print', '--via', 'github', '--package', '@team/whetstone@0.1.0'], { cwd: p.cwd, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('GATEWAY_KEY: ${{ secrets.GATEWAY_KEY }}');
    expect(r.stdout).toContain('JUDGE_KEY: ${{ secrets.JUDGE_KEY }}');
  });

  it('checks --at on remove like install does, before touching anything', async () => {
    const p = project();
    const bad = await runCommand(['schedule', 'remove', '--at', '0 25 * * *'], { cwd: p.cwd, env: p.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/hour/);
    expect(p.calls()).toBe('');
  });
});

describe('whet schedule run', () => {
  it('starts the command at each due time but never a second one while the first is still going', async () => {
    const p = project();
    const log = join(p.dir, 'runs.log');
    const slow = write(join(p.dir, 'slow.mjs'), "import fs from 'node:fs';\nconst f = process.argv[2];\nfs.appendFileSync(f, `start ${Date.now()}\\n`);\nsetTimeout(() => fs.appendFileSync(f, `end ${Date.now()}\\n`), 2500);\n");
    const ac = new AbortController();
    // Stopped by what the log shows, not at a fixed time: on a loaded machine node's own start can take
    // seconds, so a fixed 4.6 s could stop the scheduler before its first run began, or just after it started
    // a second one whose program had not written a line yet. So: the first run ends (its 2.5 s spanned two
    // due times or more, so one was skipped), the next due time starts a second run, its line appears, stop.
    let stopped = false;
    const logged = (what: string) => (existsSync(log) ? readFileSync(log, 'utf8').split(what).length - 1 : 0);
    const watch = (async () => {
      for (let i = 0; i < 400 && !stopped && !(logged('end ') >= 1 && logged('start ') >= 2); i++) await new Promise((res) => setTimeout(res, 50));
      await new Promise((res) => setTimeout(res, 100));
      ac.abort();
    })();
    const r = await runCommand(['schedule', 'run', '--at', '* * * * * *', '--', process.execPath, slow, log], { cwd: p.cwd, env: p.env, signal: ac.signal });
    stopped = true;
    await watch;
    expect(r.code, r.stderr).toBe(0);
    const events = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' ') as ['start' | 'end', string]);
    const starts = events.filter((e) => e[0] === 'start').length;
    expect(starts).toBe(2);
    // Strictly alternating start/end: a run never began while another was going.
    events.forEach((e, i) => expect(e[0]).toBe(i % 2 === 0 ? 'start' : 'end'));
    expect(r.stderr).toMatch(/previous run is still going: not starting a second one/);
    const skipped = Number(/(\d+) due time\(s\) skipped/.exec(r.stdout)?.[1]);
    expect(skipped).toBeGreaterThanOrEqual(1);
    expect(r.stdout).toContain(`${starts} run(s) started`);
  }, 20_000);

  it('runs whet nightly on the config by default, and refuses without one', async () => {
    const p = project();
    const none = await runCommand(['schedule', 'run', '-c', 'nope.yaml'], { cwd: p.cwd, env: p.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no pipeline config/);
    const bad = await runCommand(['schedule', 'run', '--at', 'every night'], { cwd: p.cwd, env: p.env });
    expect(bad.code).toBe(2);

    // The installed bin (the bundle), as a user runs it: the runner starts whet nightly through whetArgv(), which names it.
    write(join(p.cwd, 'skills/notes/SKILL.md'), '# Notes\nAlways cite the ticket number.\n');
    write(join(p.cwd, 'skills/notes/tasks.yaml'), 'skill_id: notes\nversion: "1.0"\ntasks:\n  - {id: n1, prompt: "note", judge: {type: contains, expected: ["ticket number"]}}\n');
    write(join(p.cwd, 'pipeline.yaml'), `state_dir: state\nengine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\ntargets: [{skill: "skills/*/SKILL.md"}]\n`);
    const nightlyDir = join(p.cwd, 'state', 'nightly');
    expect(existsSync(nightlyDir)).toBe(false);
    const child = spawn(process.execPath, [whetBin, 'schedule', 'run', '--at', '* * * * * *'], { cwd: p.cwd, env: p.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    const reports = () => (existsSync(nightlyDir) ? readdirSync(nightlyDir).filter((f) => /^\d{4}-\d{2}-\d{2}\.json$/.test(f)) : []);
    const deadline = Date.now() + 25_000;
    // Wait for a finished run, not just a started one, so the report is whole when it is read.
    while (!/finished in .*exit 0/.test(stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGINT');
    const code = await exited;
    expect(stderr).toMatch(/starting: .*dist\/bin\/whet\.js nightly -c .*pipeline\.yaml/);
    expect(reports()).toHaveLength(1);
    expect(readJson(join(nightlyDir, reports()[0]!))).toMatchObject({ alert: false });
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/schedule stopped: \d+ run\(s\) started, \d+ finished/);
  }, 40_000);
});
