// A newcomer's first hour, from the packed tarball: `npm pack` ships only what runs, `npm install -g` of
// the tarball — as docs/getting-started/first-run.md types it — installs it with its runtime dependencies only (no build step, no
// dev dependency) and prints no warning (issue 28: a `prepare` script in the tarball made npm 11 warn
// "install scripts not yet covered by allowScripts", even with the --allow-scripts it suggested), and in
// an empty folder the installed `whet` inits a project, runs it on the mock, reports it, and every command
// `whet init` prints works typed as printed.
//
// Offline: `npm install -g` resolves the dependency ranges against registry metadata, which npm's cache
// does not hold after `npm ci`; test/support/loopback-registry.ts serves it from the project's lockfile
// (its non-dev entries, the versions the project tests) and npm takes every tarball from the cache `npm ci`
// has just filled: no outside registry is reached.
import { execFile, spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../support/cli.js';
import { startLockfileRegistry } from '../support/loopback-registry.js';
import { npmAsync, npmEnv } from '../support/npm.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string>; bin: Record<string, string>; scripts: Record<string, string>; exports: Record<string, string> };

function sh(cmd: string, args: string[], opts: SpawnSyncOptions & { cwd: string }) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 240_000, ...opts });
  return { code: r.status, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), all: `${String(r.stdout ?? '')}${String(r.stderr ?? '')}` };
}

describe('the packed tarball, installed offline', () => {
  it('ships only what runs and gives a working whet in an empty folder', { timeout: 300_000 }, async () => {
    const tmp = tempDir('whet-tarball-');
    // dist/ is built by the test command; --ignore-scripts keeps `prepack` from rebuilding it under other tests.
    const pack = sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: repoRoot, env: npmEnv() });
    expect(pack.code, pack.all).toBe(0);
    const packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'CHANGELOG.md', 'docs/method.md', pkg.bin.whet!, 'dist/stages/evaluate/main.js', 'assets/view/index.html', 'assets/view/app.js']));
    // Only the bundle (whet, the stage programs' entries and the chunks they share), the viewer's page, the
    // README, the changelog, the docs with their pictures and the examples they link to (issue 41:
    // packaged-links.test.ts): not the unbundled tsc tree, which would ship every module a second time.
    for (const f of files) expect(f, 'only the bundle, the viewer\'s page, the README, the changelog, the docs and the examples').toMatch(/^(dist\/bin\/[^/]+\.js|dist\/stages\/[^/]+\/main\.js|assets\/view\/[a-z-]+\.(html|js|css)|package\.json|README\.md|CHANGELOG\.md|docs\/.+\.md|docs\/images\/[a-z-]+\.png|examples\/.+)$/);
    // Issue 30: the bundler's own split gives ~175 chunks; the build joins the small ones (scripts/bundle-chunks.ts)
    // to ~100 (15 of them one-line facades of a dynamic import into a shared chunk), beside 26 docs pages, their 4
    // pictures, the 17 example files the docs link to (issue 41) and the viewer's 6 files: at most 160 in all.
    expect(files.filter((f) => f.startsWith('dist/')).length, 'bundle files in the tarball').toBeLessThanOrEqual(110);
    expect(files.length, 'files in the tarball').toBeLessThanOrEqual(160);
    const tarball = join(tmp, packed[0]!.filename);

    // The install, as docs/getting-started/first-run.md types it, with the registry metadata served from the lockfile.
    const prefix = join(tmp, 'prefix');
    mkdirSync(prefix);
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Parameters<typeof startLockfileRegistry>[0];
    const registry = await startLockfileRegistry(lock);
    let install: { code: number; all: string };
    try {
      install = await npmAsync(['install', '-g', '--prefix', prefix, '--registry', registry.url, '--prefer-offline', tarball], tmp);
    } finally {
      await registry.close();
    }
    expect(install.code, `${install.all}\nnot in the lockfile: ${registry.missing.join(', ')}`).toBe(0);
    // Nothing to allow or build: no install-time script ships, so npm has nothing to warn about.
    expect(install.all, 'npm install -g prints no warning').not.toMatch(/npm warn|allowScripts|install-scripts/i);
    const installed = join(prefix, 'lib', 'node_modules', pkg.name);
    // No build at install time and no dev dependency: the tarball's dist/ is what runs.
    for (const dev of ['typescript', 'vitest', 'vite', 'playwright-core']) expect(existsSync(join(installed, 'node_modules', dev)), dev).toBe(false);
    expect(existsSync(join(installed, 'src')) || existsSync(join(installed, 'test'))).toBe(false);
    // Each module once: the bundler names every module it puts into a file in a comment line, and across
    // everything installed each name stands once (the stage programs' code is whet's chunks, not a copy).
    const code = (readdirSync(join(installed, 'dist'), { recursive: true }) as string[]).filter((f) => f.endsWith('.js'));
    const regions = code.flatMap((f) => [...readFileSync(join(installed, 'dist', f), 'utf8').matchAll(/^\/\/ ((?:dist|node_modules)\/\S+)$/gm)].map((m) => m[1]!));
    expect(regions.length).toBeGreaterThan(300);
    expect(regions.filter((r, i) => regions.indexOf(r) !== i), 'modules shipped twice').toEqual([]);
    const shipped = (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as typeof pkg).scripts;
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(shipped[hook], `the "${hook}" script`).toBeUndefined();

    // A user's shell: node and the installed whet on PATH, no agent CLI, an empty HOME and folder.
    const bin = join(tmp, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const home = join(tmp, 'home');
    const project = join(tmp, 'my-evals');
    mkdirSync(home);
    mkdirSync(project);
    const env = { PATH: `${join(prefix, 'bin')}:${bin}`, HOME: home, CI: 'true' };
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
    // The schedule line's <spec> is how the nightly job installs whetstone: here the packed tarball, committed
    // to the project (issue 39: a source that exists, never a registry name whetstone is not published under).
    mkdirSync(join(project, 'vendor'));
    copyFileSync(tarball, join(project, 'vendor', packed[0]!.filename));
    const typed = [...init.stdout.matchAll(/^ {2}whet (.+?)(?:\s+#.*)?$/gm)].map((m) => m[1]!.trim().split(/\s+/).map((w) => (w === '<spec>' ? `./vendor/${packed[0]!.filename}` : w)));
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
    // The workflow installs the tarball the user named, and its install step, run as printed in a clean
    // checkout (the project's files, a fresh global prefix, no key in the environment), gives a working whet.
    const workflow = parse(out.schedule!.stdout.slice(out.schedule!.stdout.indexOf('# whetstone nightly'))) as { jobs: { nightly: { steps: { name?: string; run?: string; env?: Record<string, string> }[] } } };
    const step = workflow.jobs.nightly.steps.find((s) => s.name === 'Install whetstone')!;
    expect(step.env).toEqual({ WHETSTONE_PACKAGE: `./vendor/${packed[0]!.filename}` });
    expect(out.schedule!.stdout).not.toContain(`${pkg.name}@${pkg.version}`);
    expect(out.schedule!.stdout).toMatch(/^ {10}whet nightly -c 'pipeline\.yaml'$/m);
    const checkout = join(tmp, 'checkout');
    cpSync(project, checkout, { recursive: true, filter: (f) => !f.includes(`${join(project, 'state')}`) });
    const jobPrefix = join(tmp, 'job-prefix');
    const ciRegistry = await startLockfileRegistry(lock);
    let jobInstall: { code: number; all: string };
    try {
      jobInstall = await new Promise((ok) => {
        execFile('sh', ['-c', step.run!], { cwd: checkout, env: { ...npmEnv(), ...step.env, npm_config_prefix: jobPrefix, npm_config_registry: ciRegistry.url, npm_config_prefer_offline: 'true' }, encoding: 'utf8', timeout: 240_000 }, (err, stdout, stderr) => ok({ code: err ? 1 : 0, all: `${stdout}${stderr}` }));
      });
    } finally {
      await ciRegistry.close();
    }
    expect(jobInstall.code, jobInstall.all).toBe(0);
    expect(sh(join(jobPrefix, 'bin', 'whet'), ['--version'], { cwd: checkout, env }).stdout.trim()).toBe(pkg.version);

    // The public surface (package.json "exports", issue 43): `whetstone/schemas` imports — the artifacts'
    // zod schemas, their JSON Schemas as `whet schemas` prints them, the stage protocol's handoff table —
    // and every other path into the package is refused, so moving an internal file breaks nobody.
    expect(Object.keys(pkg.exports)).toEqual(['./schemas', './package.json']);
    const probe = join(prefix, 'lib', 'public-surface.mjs');
    writeFileSync(probe, [
      `const s = await import('${pkg.name}/schemas');`,
      "const gate = s.gateArtifact.safeParse({ schema: 'whetstone.gate/1' });",
      'const out = { schemas: s.jsonSchemas(), gateRefused: !gate.success, handoff: s.HANDOFF.evaluated, resolved: {} };',
      `for (const p of ['${pkg.name}/package.json', '${pkg.name}', '${pkg.name}/dist/bin/whet.js', '${pkg.name}/dist/stages/gate/main.js', '${pkg.name}/assets/view/app.js'])`,
      '  try { out.resolved[p] = import.meta.resolve(p).endsWith(p.slice(p.indexOf("/") + 1)) ? "ok" : "elsewhere"; } catch (e) { out.resolved[p] = e.code; }',
      'console.log(JSON.stringify(out));',
    ].join('\n'));
    const surface = sh('node', [probe], { cwd: project, env });
    expect(surface.code, surface.all).toBe(0);
    const got = JSON.parse(surface.stdout) as { schemas: unknown; gateRefused: boolean; handoff: unknown; resolved: Record<string, string> };
    expect(got.schemas).toEqual(JSON.parse(whet('schemas').stdout));
    expect(got.gateRefused).toBe(true);
    expect(got.handoff).toEqual({ next_step: 'gate_decision', next_owner: expect.any(String) });
    expect(got.resolved).toEqual({
      [`${pkg.name}/package.json`]: 'ok',
      [pkg.name]: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      [`${pkg.name}/dist/bin/whet.js`]: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      [`${pkg.name}/dist/stages/gate/main.js`]: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      [`${pkg.name}/assets/view/app.js`]: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    });

    const status = whet('status');
    expect(status.stdout).toMatch(/-meeting-notes\s+loop\s+completed/);

    // `whet view` finds its page in the installed package: the printed URL serves it and its script.
    const view = spawn('whet', ['view', '--port', '0'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((ok, fail) => {
        let printed = '';
        view.stdout!.on('data', (d: Buffer) => {
          printed += d.toString();
          const m = /http:\/\/127\.0\.0\.1:\d+\/\?session=[0-9a-f]+/.exec(printed);
          if (m) ok(m[0]);
        });
        view.on('exit', (code) => fail(new Error(`whet view exited ${code}: ${printed}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      const script = /src="(\/assets\/app\.js\?session=[0-9a-f]+)"/.exec(html)?.[1];
      expect(script, html).toBeDefined();
      expect((await fetch(new URL(script!, url))).status).toBe(200);
      expect(((await (await fetch(new URL(`/api/runs?${new URL(url).search.slice(1)}`, url))).json()) as { run_id: string }[])[0]!.run_id).toMatch(/-meeting-notes$/);
    } finally {
      view.kill('SIGTERM');
    }
    // A stage program of the installed package, as README and docs/external-stages.md name it.
    const evaluateProgram = sh('node', [join(installed, 'dist/stages/evaluate/main.js'), '--help'], { cwd: project, env });
    expect(evaluateProgram.code, evaluateProgram.all).toBe(0);
    expect(evaluateProgram.stdout).toContain('Usage: whet evaluate [options]');
    // And one at work on the state `whet run` left: the run ended before a third gate, which it says.
    const gateProgram = sh('node', [join(installed, 'dist/stages/gate/main.js')], { cwd: project, env });
    expect(gateProgram.code, gateProgram.all).toBe(2);
    expect(gateProgram.stderr).toMatch(/never reached gate and cannot redo it/);
    // `whet stage check` of an external stage program, and the protocol it names, shipped in the package.
    const stageHelp = whet('stage', '--help');
    expect(/The protocol[^:]*: (\S+)/.exec(stageHelp.stdout)?.[1], stageHelp.stdout).toBe(join(installed, 'docs', 'external-stages.md'));
    expect(readFileSync(join(installed, 'docs', 'external-stages.md'), 'utf8')).toMatch(/^# /);
    // /bin on PATH too: a stage program is spawned through zx, which needs a shell (as any user's PATH has).
    const check = sh('whet', ['stage', 'check', 'learn', '--', 'node', join(repoRoot, 'test/fixtures/stages/stop-learner.mjs')], { cwd: project, env: { ...env, PATH: `${env.PATH}:/bin` } });
    expect(check.code, check.all).toBe(0);
  });

  it('builds when packed and in a clean clone\'s own `npm ci`, never as an installed package', { timeout: 120_000 }, async () => {
    // `prepack` builds what `npm pack` ships; `postprepare` runs in a project's own `npm install`/`npm ci`
    // (npm's root lifecycle: preinstall … prepare, postprepare) but is not among the scripts npm runs or
    // flags for an installed package (preinstall, install, postinstall, and prepare for a non-registry
    // one), so a clean clone still builds and the tarball installs silently. Checked on npm itself: the
    // project's scripts block, its build replaced by a marker, in a clone with no dependencies.
    expect(pkg.scripts['prepack']).toBe('npm run build');
    expect(pkg.scripts['prepare']).toBeUndefined();
    const clone = tempDir('whet-clone-');
    const scripts = { ...pkg.scripts, build: 'node -e "require(\'fs\').writeFileSync(\'built\', \'\')"' };
    writeFileSync(join(clone, 'package.json'), JSON.stringify({ name: 'clone', version: '1.0.0', scripts }));
    writeFileSync(join(clone, 'package-lock.json'), JSON.stringify({ name: 'clone', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'clone', version: '1.0.0' } } }));
    const ci = await npmAsync(['ci', '--offline'], clone);
    expect(ci.code, ci.all).toBe(0);
    expect(existsSync(join(clone, 'built')), `npm ci in a clean clone builds: ${ci.all}`).toBe(true);
  });
});
