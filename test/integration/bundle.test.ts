// The shipped `whet` is the bundle `npm run build` writes (scripts/bundle.ts), not the tsc output the other
// tests import. What could break in bundling alone: a package the bundle still imports that an install does
// not bring (a devDependency), a path worked out from the module's own location (the version, the bin a
// scheduled job starts), a lazy command family pulled into the entry chunk.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import nodeModule, { builtinModules } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, tempDir, whetBin, write } from '../support/cli.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string; bin: { whet: string }; dependencies: Record<string, string>; files: string[] };
const binDir = join(repoRoot, 'dist/bin');
const chunks = readdirSync(binDir).filter((f) => f.endsWith('.js'));
const run = (args: string[], cwd = repoRoot) => spawnSync(process.execPath, [whetBin, ...args], { cwd, encoding: 'utf8' });

const moduleLog = pathToFileURL(join(repoRoot, 'test/support/module-log.mjs')).href;
/** The URL of every module `whet ARGS` loads in `dir` (test/support/module-log.mjs). */
function loadedModules(dir: string, args: string[]): string[] {
  const log = join(tempDir('whet-modules-'), 'modules.txt');
  const r = spawnSync(process.execPath, ['--import', moduleLog, whetBin, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, WHET_MODULE_LOG: log } });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

/** A project with one finished standalone evaluation in state/ (mock engine); its run id. */
function evaluatedProject(dir: string): string {
  write(join(dir, 'skill/SKILL.md'), '---\nname: b\ndescription: bundled.\n---\n# B\nReply with BUNDLE-OK.\n');
  write(join(dir, 'tasks.yaml'), 'skill_id: b\nversion: "1.0"\ntasks:\n  - {id: t1, prompt: "hi", judge: {type: contains, expected: ["BUNDLE-OK"]}}\n');
  expect([0, 1]).toContain(run(['evaluate', '--standalone', '--mock', '--task-suite', 'tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', '--output', 'out.json'], dir).status);
  return readdirSync(join(dir, 'state/runs'))[0]!;
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
const packageOf = (spec: string) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

describe('the bundled bin', () => {
  it('is what package.json ships as `whet`', () => {
    expect(pkg.bin.whet).toBe('dist/bin/whet.js');
    expect(pkg.files).toContain('dist/bin/');
    // The unbundled tsc tree is for the tests only: the package ships each module once, in the bundle.
    expect(pkg.files.filter((f) => /^dist\/(src|stages)\/?$/.test(f))).toEqual([]);
    expect(chunks).toContain('whet.js');
  });

  it('has the stage programs as entries of the same bundle: each module once, in the chunks whet loads too', () => {
    const STAGES = ['generate', 'discriminate', 'evaluate', 'gate', 'learn'];
    for (const s of STAGES) {
      const entry = readFileSync(join(repoRoot, `dist/stages/${s}/main.js`), 'utf8');
      // Every import of the entry is a chunk in dist/bin/ (or a package): it runs nothing of dist/src.
      const imports = [...entry.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)"(\.[^"]+)"/g)].map((m) => m[1]!);
      expect(imports.length, s).toBeGreaterThan(0);
      for (const i of imports) expect(i, `dist/stages/${s}/main.js imports`).toMatch(/^\.\.\/\.\.\/bin\/[^/]+\.js$/);
      for (const i of imports) expect(chunks, i).toContain(i.slice('../../bin/'.length));
    }
    // The bundler names each module it puts into a file in a comment line (`// dist/src/core/log.js`): across
    // the entries and every chunk, each module stands once.
    const files = [...chunks.map((f) => join(binDir, f)), ...STAGES.map((s) => join(repoRoot, `dist/stages/${s}/main.js`))];
    const regions = files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/^\/\/ ((?:dist|node_modules)\/\S+)$/gm)].map((m) => m[1]!));
    expect(regions.length).toBeGreaterThan(300);
    expect(regions.filter((r, i) => regions.indexOf(r) !== i)).toEqual([]);
    // The build's record of the chunks (what stage-programs.test.ts reads) agrees: each module in one file.
    const record = JSON.parse(readFileSync(join(repoRoot, 'dist/bundle-modules.json'), 'utf8')) as Record<string, string[]>;
    const held = Object.values(record).flat();
    expect(held.filter((m, i) => held.indexOf(m) !== i)).toEqual([]);
    expect(Object.keys(record).sort()).toEqual([...chunks.map((c) => `bin/${c}`), ...STAGES.map((s) => `stages/${s}/main.js`)].sort());
  });

  it('carries a build id (what keys the checked suite copies), and the unbundled code none', async () => {
    const ids = chunks.flatMap((f) => [...readFileSync(join(binDir, f), 'utf8').matchAll(/\bBUILD_ID = "([0-9a-f]{16})"/g)].map((m) => m[1]));
    expect(ids).toHaveLength(1);
    const unbundled = (await import(pathToFileURL(join(repoRoot, 'dist/src/core/build-id.js')).href)) as { BUILD_ID?: string };
    expect(unbundled.BUILD_ID).toBeUndefined();
  });

  it('imports only Node built-ins and declared dependencies, and carries zod and commander inside', () => {
    const external = new Set<string>();
    for (const f of chunks) {
      const code = readFileSync(join(binDir, f), 'utf8');
      for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\blazyModule\s*\(\s*)["']([^"'./][^"']*)["']/g)) external.add(m[1]!);
    }
    const builtins = new Set(builtinModules);
    const packages = [...external].filter((s) => !s.startsWith('node:') && !builtins.has(s)).map(packageOf);
    expect(packages.length).toBeGreaterThan(0);
    for (const p of packages) expect(Object.keys(pkg.dependencies), `the bundle imports ${p}`).toContain(p);
    expect(packages).not.toContain('zod');
    expect(packages).not.toContain('commander');
  });

  it('prints the package version and the help, loading no command family for either', () => {
    const v = run(['--version']);
    expect(v.status).toBe(0);
    expect(v.stdout.trim()).toBe(pkg.version);
    const h = run(['--help']);
    expect(h.status).toBe(0);
    expect(h.stdout).toMatch(/evaluate/);
    // The entry chunk imports the shared core statically; the command families are separate chunks.
    const entry = readFileSync(join(binDir, 'whet.js'), 'utf8');
    const statics = [...entry.matchAll(/^import .* from "\.\/([^"]+)";$/gm)].map((m) => m[1]!);
    expect(statics.some((f) => /^(evaluate|report|loop|schedule|nightly)-/.test(f))).toBe(false);
    expect(entry).toMatch(/import\("\.\/evaluate-[^"]+\.js"\)/);
  });

  it("keeps its compiled code in Node's compile cache where Node has one (22.1+), and none where it has not or it is turned off", () => {
    const cached = (extra: NodeJS.ProcessEnv): number => {
      const tmp = tempDir('whet-tmp-');
      const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, ...extra };
      delete env['NODE_COMPILE_CACHE'];
      if (!('NODE_DISABLE_COMPILE_CACHE' in extra)) delete env['NODE_DISABLE_COMPILE_CACHE'];
      const r = spawnSync(process.execPath, [whetBin, 'status', '--state-root', tempDir('whet-state-')], { encoding: 'utf8', env });
      expect(r.status, r.stderr).toBe(0);
      const dir = join(tmp, 'node-compile-cache');
      return existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(join(dir, f)).isFile()).length : 0;
    };
    const hasCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';
    // On Node 20 there is no compile cache: the call does nothing, and nothing is written.
    if (hasCache) expect(cached({})).toBeGreaterThan(3);
    else expect(cached({})).toBe(0);
    expect(cached({ NODE_DISABLE_COMPILE_CACHE: '1' })).toBe(0);
  });

  it('evaluates a suite on the mock engine and reports the run with status', () => {
    const dir = tempDir();
    write(join(dir, 'skill/SKILL.md'), '---\nname: b\ndescription: bundled.\n---\n# B\nReply with BUNDLE-OK.\n');
    write(join(dir, 'tasks.yaml'), 'skill_id: b\nversion: "1.0"\ntasks:\n  - {id: t1, prompt: "hi", judge: {type: contains, expected: ["BUNDLE-OK"]}}\n  - {id: t2, prompt: "yo", judge: {type: regex, pattern: "^never$"}}\n');
    const e = run(['evaluate', '--standalone', '--mock', '--task-suite', 'tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', '--output', 'out.json'], dir);
    expect([0, 1]).toContain(e.status);
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as { evaluation: { total_tasks: number; pass_rate: number } };
    expect(artifact.evaluation.total_tasks).toBe(2);
    const s = run(['status', '--state-root', 'state'], dir);
    expect(s.status).toBe(0);
    expect(s.stdout).toMatch(/standalone-b/);
  });

  it('loads no package for --version and no YAML reader for a named state directory; reads pipeline.yaml (with js-yaml) when none is named', () => {
    const dir = tempDir();
    write(join(dir, 'pipeline.yaml'), 'state_dir: state\n');
    const modules = (args: string[]) => loadedModules(dir, args);
    expect(modules(['status', '--state-root', 'state']).filter((u) => u.includes('/js-yaml/'))).toEqual([]);
    // `--version` reads no package from node_modules at all (commander is in the bundle).
    expect(modules(['--version']).filter((u) => u.includes('/node_modules/'))).toEqual([]);
    // The control: the same command without --state-root reads the config, so the hook does see js-yaml.
    expect(modules(['status']).some((u) => u.includes('/js-yaml/'))).toBe(true);
  });

  it('status and show of standalone runs load no zod (the read models read leniently); reading pipeline.yaml does', () => {
    const dir = tempDir();
    write(join(dir, 'pipeline.yaml'), 'state_dir: state\n');
    const run0 = evaluatedProject(dir);
    // zod is bundled into one of the chunks, which names the modules it holds in its comments.
    const loadsZod = (args: string[]) =>
      loadedModules(dir, args)
        .filter((u) => u.startsWith('file:'))
        .some((u) => readFileSync(new URL(u), 'utf8').includes('node_modules/zod/'));
    expect(loadsZod(['status', '--state-root', 'state'])).toBe(false);
    expect(loadsZod(['show', run0, '--state-root', 'state'])).toBe(false);
    // The control: the config's schema is zod, so plain `status` (which reads pipeline.yaml) loads it.
    expect(loadsZod(['status'])).toBe(true);
  });

  it('loads node:child_process for none of --help, status and show (commander requires it on first use)', () => {
    const dir = tempDir();
    const run0 = evaluatedProject(dir);
    const probe = join(dir, 'probe.cjs');
    write(probe, "process.on('exit', () => require('node:fs').writeFileSync(process.env.WHET_BUILTINS_LOG, process.moduleLoadList.join('\\n')));\n");
    const builtins = (argv: string[]) => {
      const log = join(tempDir('whet-builtins-'), 'builtins.txt');
      const r = spawnSync(process.execPath, ['--require', probe, ...argv], { cwd: dir, encoding: 'utf8', env: { ...process.env, WHET_BUILTINS_LOG: log } });
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(log, 'utf8').split('\n');
    };
    for (const args of [['--help'], ['status', '--state-root', 'state'], ['show', run0, '--state-root', 'state']]) {
      expect(builtins([whetBin, ...args]), args.join(' ')).not.toContain('NativeModule child_process');
    }
    // The control: the probe does see the module when a program loads it.
    expect(builtins(['-e', "require('node:child_process')"])).toContain('NativeModule child_process');
  });

  it('names itself in the scheduled job it writes', () => {
    const dir = tempDir();
    write(join(dir, 'pipeline.yaml'), 'state_dir: state\nengine: {type: mock}\ntargets: [{skill: "skills/*/SKILL.md"}]\n');
    const r = run(['schedule', 'print'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`'${process.execPath}' '${whetBin}' 'nightly'`);
  });
});
