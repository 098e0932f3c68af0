// Each stage program is a small program: `node dist/stages/<stage>/main.js --help` prints its own usage and
// loads its own stage and the loop kernel only — no module of another stage, of the runner's registry
// (which imports all five) or of another command family. What it loads is read from Node's module hooks
// (test/support/module-log.mjs), not inferred from the source.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../support/cli.js';

const STAGES = ['generate', 'discriminate', 'evaluate', 'gate', 'learn'] as const;
const hook = pathToFileURL(join(repoRoot, 'test/support/module-log.mjs')).href;
// Commands a stage program may load: the shared one-stage command and its helpers, the static help table
// (data, loaded by the process wrapper), and evaluate's own.
const allowedCommands = (stage: string) => new Set(['deps.js', 'help-table.js', 'state-dir.js', 'stage-command.js', `${stage}.js`]);

function loaded(stage: string, args: string[]): { out: string; code: number | null; files: string[] } {
  const log = join(tempDir('whet-modules-'), 'modules.txt');
  const r = spawnSync(process.execPath, ['--import', hook, join(repoRoot, `dist/stages/${stage}/main.js`), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, WHET_MODULE_LOG: log },
  });
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const dist = pathToFileURL(join(repoRoot, 'dist')).href + '/';
  return { out: r.stdout + r.stderr, code: r.status, files: urls.filter((u) => u.startsWith(dist)).map((u) => u.slice(dist.length)) };
}

describe('stage programs', () => {
  for (const stage of STAGES) {
    it(`${stage}: --help loads no other stage, no registry and no other command`, () => {
      const r = loaded(stage, ['--help']);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain(`Usage: whet ${stage} [options]`);
      expect(r.files).toContain(`stages/${stage}/main.js`);
      const others = r.files.filter((f) => f.startsWith('stages/') && !f.startsWith(`stages/${stage}/`));
      expect(others).toEqual([]);
      expect(r.files).not.toContain('src/runner/registry.js');
      const commands = r.files.filter((f) => f.startsWith('src/commands/')).map((f) => f.slice('src/commands/'.length));
      expect(commands.filter((c) => !allowedCommands(stage).has(c))).toEqual([]);
    });
  }

  it('the whole CLI, for contrast, does load other stages when it runs the loop', () => {
    // Without this the hook could be logging nothing useful and the checks above would pass vacuously.
    const log = join(tempDir('whet-modules-'), 'modules.txt');
    spawnSync(process.execPath, ['--import', hook, '-e', `await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'dist/src/runner/registry.js')).href)})`], {
      cwd: repoRoot,
      env: { ...process.env, WHET_MODULE_LOG: log },
      input: '',
    });
    const files = readFileSync(log, 'utf8');
    for (const stage of STAGES) expect(files).toContain(`dist/stages/${stage}/`);
  });
});
