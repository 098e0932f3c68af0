// A newcomer's first hour, from the packed tarball: `npm pack` ships only what runs, the tarball installs
// offline into a temp prefix with its runtime dependencies only (no build step, no dev dependency), and
// in an empty folder the installed `whet` inits a project, runs it on the mock, reports it, and every
// command `whet init` prints works typed as printed.
//
// Offline: `npm install -g <tarball>` resolves the tarball's dependency ranges against registry metadata,
// which npm's cache does not hold after `npm ci` (that installs from the lockfile). So the install here
// is the same tarball placed with the project's own lockfile — its non-dev entries, the versions the
// project tests — from the npm cache `npm ci` has just filled, with `--offline`: no registry is reached.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../support/cli.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string>; bin: Record<string, string> };

/** npm with the environment of a user's shell: none of the npm_* variables of the `npm test` around us. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) || /^npm_config_cache$/i.test(k)) env[k] = v;
  return { ...env, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
}

function sh(cmd: string, args: string[], opts: SpawnSyncOptions & { cwd: string }) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 240_000, ...opts });
  return { code: r.status, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), all: `${String(r.stdout ?? '')}${String(r.stderr ?? '')}` };
}

describe('the packed tarball, installed offline', () => {
  it('ships only what runs and gives a working whet in an empty folder', { timeout: 300_000 }, () => {
    const tmp = tempDir('whet-tarball-');
    // dist/ is built by the test command; --ignore-scripts keeps `prepare` from rebuilding it under other tests.
    const pack = sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: repoRoot, env: npmEnv() });
    expect(pack.code, pack.all).toBe(0);
    const packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'CHANGELOG.md', 'docs/method.md', pkg.bin.whet!, 'dist/stages/evaluate/main.js']));
    for (const f of files) expect(f, 'only built code, the README, the changelog and the docs').toMatch(/^(dist\/(src|stages|bin)\/.+\.js|package\.json|README\.md|CHANGELOG\.md|docs\/.+\.md)$/);
    const tarball = join(tmp, packed[0]!.filename);

    // The install: the tarball plus its runtime dependencies at the versions of the project's lockfile.
    const prefix = join(tmp, 'prefix');
    mkdirSync(prefix);
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const packages: Record<string, unknown> = { '': { name: 'whet-prefix', dependencies: { [pkg.name]: `file:${tarball}` } } };
    for (const [k, v] of Object.entries(lock.packages)) if (k.startsWith('node_modules/') && !v.dev) packages[k] = v;
    packages[`node_modules/${pkg.name}`] = { version: pkg.version, resolved: `file:${tarball}`, dependencies: pkg.dependencies, bin: pkg.bin };
    writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: 'whet-prefix', private: true, dependencies: { [pkg.name]: `file:${tarball}` } }));
    writeFileSync(join(prefix, 'package-lock.json'), JSON.stringify({ name: 'whet-prefix', lockfileVersion: 3, requires: true, packages }));
    const install = sh('npm', ['ci', '--offline', '--omit=dev'], { cwd: prefix, env: npmEnv() });
    expect(install.code, install.all).toBe(0);
    const installed = join(prefix, 'node_modules', pkg.name);
    // No build at install time and no dev dependency: the tarball's dist/ is what runs.
    for (const dev of ['typescript', 'vitest', 'vite', 'playwright-core']) expect(existsSync(join(prefix, 'node_modules', dev)), dev).toBe(false);
    expect(existsSync(join(installed, 'src')) || existsSync(join(installed, 'test'))).toBe(false);

    // A user's shell: node and the installed whet on PATH, no agent CLI, an empty HOME and folder.
    const bin = join(tmp, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const home = join(tmp, 'home');
    const project = join(tmp, 'my-evals');
    mkdirSync(home);
    mkdirSync(project);
    const env = { PATH: `${join(prefix, 'node_modules', '.bin')}:${bin}`, HOME: home, CI: 'true' };
    const whet = (...args: string[]) => sh('whet', args, { cwd: project, env });

    const version = whet('--version');
    expect(version.stdout.trim()).toBe(pkg.version);
    const help = whet('--help');
    expect(help.code).toBe(0);
    const guide = /The method behind the numbers[^:]*: (\S+)/.exec(help.stdout)?.[1];
    expect(guide, help.stdout).toBe(join(installed, 'docs', 'method.md'));
    expect(readFileSync(guide!, 'utf8')).toMatch(/^# The method/);

    const init = whet('init');
    expect(init.code, init.all).toBe(0);
    expect(init.stdout).toContain('wrote pipeline.yaml');
    expect(readFileSync(join(project, 'pipeline.yaml'), 'utf8')).toMatch(/^# No agent CLI found on PATH[\s\S]*engine:\n {2}type: mock\n/m);

    // Every command init suggests, typed as printed (its comment left off), in order.
    const typed = [...init.stdout.matchAll(/^ {2}whet (.+?)(?:\s+#.*)?$/gm)].map((m) => m[1]!.trim().split(/\s+/));
    expect(typed.map((a) => a[0])).toEqual(['lint', 'plan', 'run', 'report', 'schedule']);
    const out: Record<string, ReturnType<typeof whet>> = {};
    for (const args of typed) {
      out[args[0]!] = whet(...args);
      expect(out[args[0]!]!.code, `whet ${args.join(' ')}: ${out[args[0]!]!.all}`).toBe(0);
    }
    expect(out.run!.stdout).toMatch(/^run (completed|done): /m);
    const reportFile = /^evidence report: (\S+)$/m.exec(out.run!.stdout)?.[1];
    expect(reportFile && readFileSync(join(project, reportFile), 'utf8')).toMatch(/^# whetstone report — run `/);
    expect(out.report!.stdout).toMatch(/^# whetstone report — run `[^`]+-meeting-notes`/);
    expect(out.report!.stdout).toContain('## Thresholds (set before results)');
    // The workflow of a project that installed whetstone this way installs it in the job too.
    expect(out.schedule!.stdout).toContain(`WHETSTONE_PACKAGE: ${pkg.name}@${pkg.version}`);
    expect(out.schedule!.stdout).toMatch(/^ {10}whet nightly -c 'pipeline\.yaml'$/m);
    expect(out.schedule!.stdout).not.toMatch(/^ +npx whet/m);

    const status = whet('status');
    expect(status.stdout).toMatch(/-meeting-notes\s+loop\s+completed/);
  });
});
