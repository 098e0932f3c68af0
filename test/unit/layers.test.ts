// The layering rule (.dependency-cruiser.cjs, AGENTS.md "Layers") holds on the real tree, and it is a rule
// that can fail: a fixture tree with one of each forbidden import is refused, each by its rule's name.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir, write } from '../support/cli.js';

const bin = join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const config = join(repoRoot, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: unknown[];
}

function cruise(cwd: string): Violation[] {
  const r = spawnSync(process.execPath, [bin, '--config', config, '--output-type', 'json', 'src', 'stages'], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (!r.stdout) throw new Error(`dependency-cruiser printed nothing: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('layering rule', () => {
  it('holds on the whole tree: no upward import, no stage importing another, no cycle', () => {
    const v = cruise(repoRoot);
    expect(v.map((x) => `${x.rule.name}: ${x.from} → ${x.to}`)).toEqual([]);
  }, 120_000);

  it('fails on a stage importing another stage, a lower layer importing a higher one, a cycle, a library importing a stage and a stage program importing the CLI', () => {
    const dir = tempDir('whet-layers-');
    write(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
    write(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    for (const d of ['stages/gate', 'stages/learn', 'src/runner', 'src/config', 'src/skill', 'src/widgets', 'src/nightly', 'src/program', 'src/stage-programs', 'src/commands']) mkdirSync(join(dir, d), { recursive: true });
    write(join(dir, 'stages/gate/index.ts'), "import { lesson } from '../learn/lesson.js';\nexport const gate = lesson;\n");
    write(join(dir, 'stages/learn/lesson.ts'), 'export const lesson = 1;\n');
    write(join(dir, 'src/runner/loop.ts'), 'export const drive = 1;\n');
    write(join(dir, 'src/config/pipeline.ts'), "import { drive } from '../runner/loop.js';\nexport const cfg = drive;\n");
    write(join(dir, 'src/skill/a.ts'), "import { b } from './b.js';\nexport const a = () => b;\n");
    write(join(dir, 'src/skill/b.ts'), "import { a } from './a.js';\nexport const b = () => a;\n");
    write(join(dir, 'src/widgets/w.ts'), "import { lesson } from '../../stages/learn/lesson.js';\nexport const w = lesson;\n");
    // Shared machinery kept in a stage's folder: a library (above the stages in the table) loading it fails too.
    write(join(dir, 'src/nightly/fan-out.ts'), "import { lesson } from '../../stages/learn/lesson.js';\nexport const f = lesson;\n");
    // The runner drives the stages: allowed.
    write(join(dir, 'src/runner/registry.ts'), "import { lesson } from '../../stages/learn/lesson.js';\nexport const r = lesson;\n");
    // A stage program stands on src/program/, never on the CLI's own module.
    write(join(dir, 'src/program/main.ts'), 'export const main = 1;\n');
    write(join(dir, 'src/cli.ts'), "import { main } from './program/main.js';\nexport const cli = main;\n");
    write(join(dir, 'src/stage-programs/learn.ts'), "import { cli } from '../cli.js';\nimport { main } from '../program/main.js';\nimport { lesson } from '../../stages/learn/lesson.js';\nexport const m = [cli, main, lesson];\n");
    // A stage that reaches up into the commands (the picture of the stages above the CLI) fails too.
    write(join(dir, 'src/commands/stage-command.ts'), 'export const register = 1;\n');
    write(join(dir, 'stages/learn/program.ts'), "import { register } from '../../src/commands/stage-command.js';\nexport const p = register;\n");
    const names = cruise(dir).map((x) => `${x.rule.name}: ${x.from} → ${x.to}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'no-stage-to-stage: stages/gate/index.ts → stages/learn/lesson.ts',
        'layer-domain: src/config/pipeline.ts → src/runner/loop.ts',
        expect.stringMatching(/^no-circular: src\/skill\/[ab]\.ts → src\/skill\/[ab]\.ts$/),
        'no-stages-below-the-runner: src/nightly/fan-out.ts → stages/learn/lesson.ts',
        'stage-program-own-stage: src/stage-programs/learn.ts → src/cli.ts',
        'layer-stages: stages/learn/program.ts → src/commands/stage-command.ts',
      ]),
    );
    // The runner loading a stage, a stage program loading its own stage and the program scaffolding: allowed.
    expect(names.filter((n) => n.includes('src/runner/registry.ts') || n.includes('→ src/program/') || n.includes('src/stage-programs/learn.ts → stages/'))).toEqual([]);
    expect(names.some((n) => n.startsWith('every-file-in-a-layer: src/widgets/w.ts'))).toBe(true);
  }, 120_000);
});
