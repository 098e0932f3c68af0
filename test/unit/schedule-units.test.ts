// What `whet schedule` writes: the crontab block (and the pure edits that add, replace and remove it
// byte for byte), its shell quoting proven by running the entry through /bin/sh the way cron does, the
// systemd service and timer, and the GitHub Actions workflow (parsed as YAML and checked step by step).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { withEntry, withoutEntry } from '../../src/schedule/crontab.js';
import { githubWorkflow } from '../../src/schedule/github.js';
import { ACTIONS } from '../../src/schedule/github-jobs.js';
import { githubShardedWorkflow } from '../../src/schedule/github-shards.js';
import type { WhetInstall } from '../../src/schedule/install.js';
import { isDependencyOf } from '../../src/core/package-info.js';
import { crontabBlock, cronQuote, marker, systemdQuote, systemdUnits, unitName, type ScheduleTarget } from '../../src/schedule/units.js';
import { tempDir, write } from '../support/cli.js';

const target = (projectDir: string, over: Partial<ScheduleTarget> = {}): ScheduleTarget => ({
  projectDir,
  configPath: join(projectDir, 'pipeline.yaml'),
  stateDir: join(projectDir, 'state'),
  whetArgv: ['/usr/bin/node', '/opt/whet/dist/src/cli.js'],
  cron: '0 3 * * *',
  ...over,
});

describe('crontab entry', () => {
  const t = target('/home/ann/proj');
  const block = crontabBlock(t);

  it('is a marker line and one entry that runs whet nightly with the absolute config in the project folder', () => {
    expect(block).toBe(
      "# whetstone nightly /home/ann/proj\n0 3 * * * mkdir -p '/home/ann/proj/state/nightly' && cd '/home/ann/proj' && '/usr/bin/node' '/opt/whet/dist/src/cli.js' 'nightly' '-c' '/home/ann/proj/pipeline.yaml' >> '/home/ann/proj/state/nightly/cron.log' 2>&1\n",
    );
  });

  it('is added once, replaced in place of an older one, and removed byte for byte', () => {
    const table = '# my jobs\nMAILTO=ann@example.com\n*/5 * * * * /usr/bin/backup --quiet 50\\%\n\n# whetstone nightly /home/ann/other\n0 1 * * * other\n';
    const added = withEntry(table, block, t.projectDir);
    expect(added).toEqual({ table: table + block, action: 'added' });
    expect(withEntry(added.table, block, t.projectDir)).toEqual({ table: added.table, action: 'unchanged' });
    const moved = crontabBlock({ ...t, cron: '30 4 * * *' });
    const replaced = withEntry(added.table, moved, t.projectDir);
    expect(replaced.action).toBe('replaced');
    expect(replaced.table.match(/whetstone nightly \/home\/ann\/proj\n/g)).toHaveLength(1);
    expect(withoutEntry(replaced.table, t.projectDir)).toEqual({ table, removed: 1 });
    expect(withoutEntry(table, t.projectDir)).toEqual({ table, removed: 0 });
    expect(withoutEntry(withEntry('', block, t.projectDir).table, t.projectDir).table).toBe('');
  });

  it('never takes a line that is not its entry: a comment or a blank line after a stray marker stays', () => {
    const table = `${marker(t.projectDir)}\n# someone else's note\n`;
    expect(withoutEntry(table, t.projectDir).table).toBe("# someone else's note\n");
  });

  it('quotes paths so /bin/sh runs exactly the intended program, even with spaces, quotes and % in them', () => {
    const dir = tempDir("whet sched 'q' %d-");
    const fake = write(join(dir, 'fake whet'), '#!/bin/sh\nprintf "%s\\n" "$PWD" "$@" > "$PWD/args.txt"\n');
    chmodSync(fake, 0o755);
    const t2 = target(dir, { whetArgv: [fake] });
    const line = crontabBlock(t2).split('\n')[1]!;
    // cron hands the command (after five fields) to /bin/sh, turning \% into %.
    const command = line.split(' ').slice(5).join(' ').replace(/\\%/g, '%');
    const r = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'args.txt'), 'utf8')).toBe(`${dir}\nnightly\n-c\n${join(dir, 'pipeline.yaml')}\n`);
    expect(existsSync(join(dir, 'state/nightly/cron.log'))).toBe(true);
    expect(cronQuote("it's 100%")).toBe("'it'\\''s 100\\%'");
  });
});

describe('systemd units', () => {
  it('are a oneshot service running whet nightly in the project and a persistent timer on the converted calendar', () => {
    const u = systemdUnits(target('/srv/my proj', { cron: '30 2 * * 1-5' }));
    expect(u.name).toBe(unitName('/srv/my proj'));
    expect(u.name).toMatch(/^whetstone-nightly-[0-9a-f]{10}$/);
    expect(u.service.split('\n')[0]).toBe('# whetstone nightly /srv/my proj');
    expect(u.service).toContain('Type=oneshot\n');
    expect(u.service).toContain('WorkingDirectory="/srv/my proj"\n');
    expect(u.service).toContain('ExecStart=/usr/bin/node /opt/whet/dist/src/cli.js nightly -c "/srv/my proj/pipeline.yaml"\n');
    expect(u.timer).toContain('OnCalendar=Mon..Fri *-*-* 02:30:00\nPersistent=true\n');
    expect(u.timer).toContain(`Unit=${u.name}.service\n`);
    expect(u.timer).toContain('[Install]\nWantedBy=timers.target\n');
    expect(unitName('/srv/other')).not.toBe(u.name);
  });

  it('escapes systemd specifiers and variables in arguments', () => {
    expect(systemdQuote('/a/100%/$HOME')).toBe('/a/100%%/$$HOME');
    expect(systemdQuote('say "hi"')).toBe('"say \\"hi\\""');
  });
});

describe('GitHub Actions workflow', () => {
  type Step = { uses?: string; run?: string; with?: Record<string, string>; if?: string };
  // By default the project lists whetstone as a dev dependency: npm ci brings it and npx runs it.
  const workflow = (over: Partial<ScheduleTarget> = {}, packageJson: object | null = { devDependencies: { whetstone: '^0.1.0' } }) => {
    const repo = tempDir('whet-repo-');
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'evals'));
    if (packageJson) writeFileSync(join(repo, 'evals', 'package.json'), JSON.stringify(packageJson));
    const wf = githubWorkflow(target(join(repo, 'evals'), { cron: '15 2 * * *', ...over }), repo, installFor(join(repo, 'evals')));
    return { repo, wf, y: parseYaml(wf) };
  };

  // A project that lists whetstone runs its own; else the --package spec the user names (issue 39).
  const installFor = (dir: string): WhetInstall => (isDependencyOf(dir) ? { kind: 'dependency' } : { kind: 'package', source: 'registry', spec: '@team/whetstone@0.1.0' });

  it('installs the --package spec in the job when the project does not list whetstone, and calls whet, not npx whet', () => {
    for (const pkg of [null, { dependencies: { other: '1' } }]) {
      const { wf, y } = workflow({}, pkg);
      const steps = y.jobs.nightly.steps as (Step & { env?: Record<string, string> })[];
      const install = steps.findIndex((s) => s.run === 'npm install -g "$WHETSTONE_PACKAGE"');
      expect(install, wf).toBeGreaterThanOrEqual(0);
      expect(steps[install]!.env).toEqual({ WHETSTONE_PACKAGE: '@team/whetstone@0.1.0' });
      const nightly = steps.findIndex((s) => s.run?.trim() === "whet nightly -c 'pipeline.yaml'");
      expect(nightly).toBeGreaterThan(install);
      expect(wf).not.toMatch(/^ +npx whet/m);
      expect(steps.some((s) => s.run?.trim() === 'npm ci')).toBe(false);
    }
  });

  it('takes every action of both workflows, one-machine and sharded, from the one table of versions', () => {
    const { repo } = workflow();
    const sharded = githubShardedWorkflow(target(join(repo, 'evals'), { cron: '15 2 * * *' }), repo, 3, { kind: 'dependency' });
    for (const wf of [workflow().wf, sharded]) {
      const jobs = Object.values((parseYaml(wf) as { jobs: Record<string, { steps: Step[] }> }).jobs);
      const uses = jobs.flatMap((j) => j.steps.flatMap((s) => (s.uses ? [s.uses] : [])));
      expect(uses.length).toBeGreaterThan(3);
      for (const u of uses) expect(Object.values(ACTIONS), u).toContain(u);
    }
    // Both workflows set up their jobs alike: the same checkout, Node and install in every job that runs whet.
    const y = parseYaml(sharded) as { jobs: Record<string, { steps: Step[] }> };
    const setupOf = (steps: Step[]) => steps.slice(0, 3).map((s) => s.uses ?? s.run?.trim());
    expect(setupOf(y.jobs['shard']!.steps)).toEqual(setupOf(workflow().y.jobs.nightly.steps as Step[]));
    expect(setupOf(y.jobs['merge']!.steps)).toEqual(setupOf(workflow().y.jobs.nightly.steps as Step[]));
  });

  it('schedules whet nightly with the cron, restores the state before it and uploads the reports', () => {
    const { repo, wf, y } = workflow();
    expect(wf.split('\n')[0]).toBe(`# whetstone nightly ${join(repo, 'evals')}`);
    expect(y.on.schedule).toEqual([{ cron: '15 2 * * *' }]);
    const job = y.jobs.nightly;
    expect(job.defaults.run['working-directory']).toBe('evals');
    const steps = job.steps as Step[];
    const at = (pred: (s: Step) => boolean) => steps.findIndex(pred);
    const nightly = at((s) => s.run?.includes("npx --no-install whet nightly -c 'pipeline.yaml'") ?? false);
    expect(at((s) => s.run?.trim() === 'npm ci')).toBeLessThan(nightly);
    const restore = at((s) => s.uses === 'actions/cache/restore@v4');
    expect(restore).toBeGreaterThanOrEqual(0);
    expect(restore).toBeLessThan(nightly);
    expect(steps[restore]!.with).toMatchObject({ path: 'evals/state', 'restore-keys': 'whetstone-state-\n' });
    const upload = steps[at((s) => s.uses?.startsWith('actions/upload-artifact@') ?? false)]!;
    expect(upload.if).toBe('always()');
    expect(upload.with!.path).toContain('evals/state/nightly/');
    // The report covers every target of the night, not the newest run (one target), and is uploaded.
    const report = steps[at((s) => s.run?.includes('npx --no-install whet report') ?? false)]!;
    expect(report.if).toBe('always()');
    expect(report.run).toContain("npx --no-install whet report --nightly --format html -o whetstone-report.html -c 'pipeline.yaml'");
    expect(report.run).toContain("npx --no-install whet report --nightly --format md -o whetstone-report.md -c 'pipeline.yaml'");
    expect(upload.with!.path!.split('\n').map((l) => l.trim())).toEqual(expect.arrayContaining(['evals/whetstone-report.html', 'evals/whetstone-report.md']));
    expect(() => githubWorkflow(target(join(repo, 'evals'), { stateDir: '/var/whet' }), repo, { kind: 'dependency' })).toThrow(/outside the repository/);
  });

  it('saves the state even when a drift alert fails the job, under a key unique to the run and attempt', () => {
    const steps = workflow().y.jobs.nightly.steps as Step[];
    // The combined actions/cache saves only after a successful job: the alerting night would be lost.
    expect(steps.filter((s) => s.uses?.startsWith('actions/cache@'))).toEqual([]);
    const restore = steps.findIndex((s) => s.uses === 'actions/cache/restore@v4');
    const nightly = steps.findIndex((s) => s.run?.includes('npx --no-install whet nightly') ?? false);
    const save = steps.findIndex((s) => s.uses === 'actions/cache/save@v4');
    expect(save).toBeGreaterThan(nightly);
    expect(steps[save]!.if).toBe('always()');
    expect(steps[save]!.with).toEqual({ path: 'evals/state', key: steps[restore]!.with!.key });
    expect(steps[save]!.with!.key).toBe('whetstone-state-${{ github.run_id }}-${{ github.run_attempt }}');
    expect(steps[save]!.with!.key?.startsWith('whetstone-state-')).toBe(true);
  });

  it('passes the engine API keys from secrets, the ones the config names first, to the whet nightly step only', () => {
    const { wf, y } = workflow({ keyEnvs: ['MY_GATEWAY_KEY'] });
    expect(y.jobs.nightly.env).toBeUndefined();
    const nightlyStep = (steps: { name?: string; env?: Record<string, string> }[]) => steps.find((s) => s.name === 'whet nightly')!;
    expect(y.jobs.nightly.steps.filter((s: { env?: object }) => JSON.stringify(s.env ?? {}).includes('secrets.')).length).toBe(1);
    expect(nightlyStep(y.jobs.nightly.steps).env).toEqual({
      MY_GATEWAY_KEY: '${{ secrets.MY_GATEWAY_KEY }}',
      OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}',
      ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}',
    });
    expect(wf).toMatch(/# Engine API keys, only in the steps that run whet, each from the repository secret of the same name/);
    expect(Object.keys(nightlyStep(workflow().y.jobs.nightly.steps).env!)).toEqual(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY']);
  });
});
