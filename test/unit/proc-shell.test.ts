// The one process wrapper runs each program through zx's bash with `exec`. A bash whose stdin is a socket
// (node's child pipes) and that believes itself top-level (no SHLVL, as under cron, systemd or a CI runner)
// sources ~/.bashrc first: the user's shell set-up ran before every agent call. Here a HOME whose .bashrc
// leaves a mark, and an environment with no SHLVL: the program runs, the .bashrc never does.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess, shellEnv } from '../../src/core/proc.js';
import { tempDir } from '../support/temp.js';
import { write } from '../support/cli.js';

describe('runProcess and the user’s shell set-up', () => {
  it('never sources ~/.bashrc, whatever SHLVL the caller has', async () => {
    const home = tempDir('whet-home-');
    const mark = join(home, 'bashrc-ran');
    write(join(home, '.bashrc'), `touch '${mark}'\n`);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home };
    for (const input of ['a prompt on stdin', undefined]) {
      const r = await runProcess({ argv: ['cat'], env, input, timeoutMs: 10_000 });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(input ?? '');
      expect(existsSync(mark), 'the .bashrc ran before the program').toBe(false);
    }
  });

  it('keeps a caller’s own SHLVL and sets one only where there is none', () => {
    expect(shellEnv({ SHLVL: '3' }).SHLVL).toBe('3');
    expect(shellEnv({}).SHLVL).toBe('1');
    expect(shellEnv({ SHLVL: 'x' }).SHLVL).toBe('1');
  });
});
