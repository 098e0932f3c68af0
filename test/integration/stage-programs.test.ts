// Each stage program is a small program: `node dist/stages/<stage>/main.js --help` (src/stage-programs/<stage>.ts)
// prints its own usage and loads its own stage and the loop kernel only — no module of another stage, of the
// runner's registry (which imports all five), of another command family or of the CLI's own module
// (src/cli.ts): it stands on src/program/. The stage programs are entries of the one bundle `whet` is (scripts/bundle.ts), so what a
// program loads is a set of chunks: read from Node's module hooks (test/support/module-log.mjs), not
// inferred from the source, and turned into the modules each chunk holds by the bundler's own record of
// them (dist/bundle-modules.json, written by the build).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir, whetBin } from '../support/cli.js';

const STAGES = ['generate', 'discriminate', 'evaluate', 'gate', 'learn'] as const;
const hook = pathToFileURL(join(repoRoot, 'test/support/module-log.mjs')).href;
// Commands a stage program may load: the shared one-stage command and its helper, and evaluate's own.
const allowedCommands = (stage: string) => new Set(['state-dir.js', 'stage-command.js', `${stage}.js`]);
const chunkModules = JSON.parse(readFileSync(join(repoRoot, 'dist/bundle-modules.json'), 'utf8')) as Record<string, string[]>;

/** The source modules (`dist/src/…`, `dist/stages/…`, as tsc names them) a program loads, through the chunks it loads. */
function loaded(program: string, args: string[]): { out: string; code: number | null; chunks: string[]; files: string[] } {
  const log = join(tempDir('whet-modules-'), 'modules.txt');
  const r = spawnSync(process.execPath, ['--import', hook, program, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, WHET_MODULE_LOG: log },
  });
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const dist = pathToFileURL(join(repoRoot, 'dist')).href + '/';
  const chunks = urls.filter((u) => u.startsWith(dist)).map((u) => u.slice(dist.length));
  const files = chunks.flatMap((c) => {
    const held = chunkModules[c];
    if (!held) throw new Error(`${c} is loaded but is no chunk of the bundle (dist/bundle-modules.json)`);
    return held.filter((m) => m.startsWith('dist/')).map((m) => m.slice('dist/'.length));
  });
  return { out: r.stdout + r.stderr, code: r.status, chunks, files };
}

describe('stage programs', () => {
  for (const stage of STAGES) {
    it(`${stage}: --help loads no other stage, no registry, no other command and not the CLI`, () => {
      const r = loaded(join(repoRoot, `dist/stages/${stage}/main.js`), ['--help']);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain(`Usage: whet ${stage} [options]`);
      // The bundled entry, whose code is in the chunks whet loads too: nothing of dist/src is run unbundled.
      expect(r.chunks).toContain(`stages/${stage}/main.js`);
      expect(r.chunks.filter((c) => !c.startsWith('bin/') && c !== `stages/${stage}/main.js`)).toEqual([]);
      expect(r.files).toContain(`src/stage-programs/${stage}.js`);
      // Its own stage (evaluate's command imports the stage only when it runs, not for --help).
      if (stage !== 'evaluate') expect(r.files).toContain(`stages/${stage}/index.js`);
      expect(r.files).toContain('src/program/main.js');
      const others = r.files.filter((f) => f.startsWith('stages/') && !f.startsWith(`stages/${stage}/`));
      expect(others).toEqual([]);
      expect(r.files).not.toContain('src/runner/registry.js');
      expect(r.files).not.toContain('src/cli.js');
      expect(r.files.filter((f) => f.startsWith('src/stage-programs/'))).toEqual([`src/stage-programs/${stage}.js`]);
      const commands = r.files.filter((f) => f.startsWith('src/commands/')).map((f) => f.slice('src/commands/'.length));
      expect(commands.filter((c) => !allowedCommands(stage).has(c))).toEqual([]);
    });
  }

  it('the whole CLI, for contrast, does load every stage when it runs the loop', () => {
    // Without this the hook or the chunk record could be telling nothing useful and the checks above
    // would pass vacuously: `whet run --help` loads the loop family, whose registry imports all five.
    const r = loaded(whetBin, ['run', '--help']);
    expect(r.code, r.out).toBe(0);
    expect(r.files).toContain('src/cli.js');
    expect(r.files).toContain('src/runner/registry.js');
    for (const stage of STAGES) expect(r.files.some((f) => f.startsWith(`stages/${stage}/`)), stage).toBe(true);
  });
});
