// `whet status` at many runs (issue 41: 10,000 runs printed 20,000 lines): the newest 20, under a line
// counting the rest, and `--all` for every one; `--json` keeps every run.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { copyExample, tempDir, whet } from '../support/cli.js';
import { writeManyRuns } from '../../scripts/many-runs.js';
import { readdirSync } from 'node:fs';

describe('whet status with more runs than fit a screen', () => {
  it('shows the newest 20 and counts the rest; --all and --json show every run', async () => {
    const dir = tempDir('whet-status-newest-');
    copyExample('release-notes', join(dir, 'skill'));
    const args = ['--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', '--mock'];
    const first = await whet(['evaluate', '--standalone', ...args], { cwd: dir });
    expect([0, 1], first.stderr).toContain(first.code);
    const source = join(dir, 'state/runs', readdirSync(join(dir, 'state/runs'))[0]!);
    const ids = writeManyRuns(join(dir, 'state'), source, 24, new Date(Date.now() - 86_400_000));
    const all = [...ids, source.split('/').pop()!];
    const shown = await whet(['status', '--state-root', 'state'], { cwd: dir });
    expect(shown.code, shown.stderr).toBe(0);
    const lines = shown.stdout.split('\n');
    expect(lines[0]).toBe('5 older runs not shown (nor checked): "whet status --all" lists every run');
    const listed = lines.filter((l) => /^\S+ {2}standalone {2}/.test(l)).map((l) => l.split(' ')[0]);
    expect(listed).toEqual(all.slice(-20));
    const every = await whet(['status', '--state-root', 'state', '--all'], { cwd: dir });
    expect(every.stdout).not.toContain('older run');
    expect(every.stdout.split('\n').filter((l) => /^\S+ {2}standalone {2}/.test(l)).map((l) => l.split(' ')[0])).toEqual(all);
    const json = JSON.parse((await whet(['status', '--state-root', 'state', '--json'], { cwd: dir })).stdout) as { run_id: string }[];
    expect(json.map((r) => r.run_id)).toEqual(all);
  });
});
