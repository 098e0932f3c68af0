// `whet view` as a command: --open hands the printed URL to the desktop's opener, a port in use is refused
// with how to choose another, and a standalone evaluation's outputs are served as iteration 0.
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { copyExample, tempDir, whet, write } from '../support/cli.js';
import { startView } from '../support/view.js';

const api = async (view: { origin: string; token: string }, path: string) => {
  const r = await fetch(`${view.origin}${path}${path.includes('?') ? '&' : '?'}session=${view.token}`);
  return { status: r.status, body: (await r.json()) as any };
};

describe('whet view, the command', () => {
  it.runIf(process.platform === 'linux')('--open gives the printed URL to xdg-open', async () => {
    const dir = tempDir('whet-view-open-');
    const bin = join(dir, 'bin');
    const seen = join(dir, 'opened.txt');
    write(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${seen}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const prev = process.env['PATH'];
    process.env['PATH'] = `${bin}:${prev ?? ''}`;
    try {
      const view = await startView(dir, ['--state-root', join(dir, 'state'), '--open']);
      for (let i = 0; i < 100 && !existsSync(seen); i++) await sleep(50);
      expect(readFileSync(seen, 'utf8')).toBe(view.url);
      expect(await view.stop()).toBe(0);
    } finally {
      process.env['PATH'] = prev;
    }
  });

  it('refuses a port in use, saying how to choose another', async () => {
    const dir = tempDir('whet-view-port-');
    const first = await startView(dir, ['--state-root', join(dir, 'state')]);
    try {
      const second = await whet(['view', '--state-root', join(dir, 'state'), '--port', String(first.port)], { cwd: dir });
      expect(second.code).toBe(2);
      expect(second.stderr).toBe(`whet: port ${first.port} on 127.0.0.1 is in use: choose another with --port N (0: any free port)\n`);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  });

  it('serves a standalone evaluation’s outputs as iteration 0, with every attempt and the prompt', async () => {
    const dir = tempDir('whet-view-standalone-');
    copyExample('release-notes', join(dir, 'release-notes'));
    const ev = await whet(['evaluate', '--mock', '--standalone', '--skill-path', 'release-notes', '--task-suite', 'release-notes/tasks.yaml', '--pass-k', '2'], { cwd: dir });
    expect([0, 1]).toContain(ev.code);
    const runId = readdirSync(join(dir, 'state/runs'))[0]!;
    const view = await startView(dir, ['--state-root', join(dir, 'state')]);
    try {
      const run = await api(view, `/api/runs/${runId}`);
      expect(run.body.standalone.data.mode).toBe('standalone');
      const table = await api(view, `/api/runs/${runId}/iterations/0/outputs`);
      expect(table.body.candidate).toBeNull();
      expect(table.body.rows).toHaveLength(10);
      const task = table.body.rows[0][0] as string;
      const one = await api(view, `/api/runs/${runId}/iterations/0/outputs/${encodeURIComponent(task)}`);
      expect(one.body.prompt).toContain('Write the release notes');
      expect(one.body.variants).toHaveLength(1);
      expect(one.body.variants[0].attempts.map((a: { attempt: number }) => a.attempt)).toEqual([0, 1]);
      expect((await api(view, `/api/runs/${runId}/iterations/0/outputs/no-such-task`)).status).toBe(404);
    } finally {
      expect(await view.stop()).toBe(0);
    }
  });
});
