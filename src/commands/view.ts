// `whet view [--port N] [--open] [--review]`: the state directory in a browser (issue 29; the server is
// src/view/server.ts). It prints the one URL with the token, then serves until Ctrl-C. With --review the
// page can approve or reject held candidates, through reviewCandidate — the very function `whet review
// approve|reject` runs (commands/promote.ts) — and nothing else the page does changes a run.
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { intArg, type CliDeps, type SetCode } from '../program/deps.js';
import { stateDirOf } from './state-dir.js';

interface Opts {
  config?: string;
  stateRoot?: string;
  port?: number;
  open?: boolean;
  review?: boolean;
}

export const DEFAULT_PORT = 7447;

/** Starts the viewer for a command's options; the caller closes it. */
export async function openViewer(deps: CliDeps, o: Opts) {
  const stateDir = await stateDirOf(deps, o);
  const { startViewer } = await import('../view/server.js');
  const review = o.review
    ? async (run: string, cand: string, verdict: 'approve' | 'reject', iteration: number) => (await import('./promote.js')).reviewCandidate(deps, stateDir, run, cand, verdict, iteration)
    : undefined;
  try {
    return { stateDir, viewer: await startViewer({ stateDir, port: o.port ?? DEFAULT_PORT, now: deps.now, ...(review ? { review } : {}) }) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UsageError(`port ${o.port ?? DEFAULT_PORT} on 127.0.0.1 is in use: choose another with --port N (0: any free port)`);
    throw err;
  }
}

async function openBrowser(url: string, deps: CliDeps): Promise<void> {
  const { runProcess } = await import('../core/proc.js');
  const argv = process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['explorer.exe', url] : ['xdg-open', url];
  const r = await runProcess({ argv, env: deps.env, timeoutMs: 10_000 });
  if (r.spawnError || r.exitCode !== 0) deps.stderr(`whet: could not open a browser (${r.spawnError ?? `${argv[0]} exited ${r.exitCode}`}); open the URL above yourself\n`);
}

export function registerViewCommand(program: Command, deps: CliDeps, _setCode: SetCode): void {
  program
    .command('view')
    .description('watch runs live, read outputs side by side, give feedback and review held candidates in a browser (127.0.0.1)')
    .option('-c, --config <file>', 'pipeline config')
    .option('--state-root <dir>', 'state directory')
    .option('--port <n>', `port on 127.0.0.1 (default ${DEFAULT_PORT}; 0: any free port)`, intArg('--port'))
    .option('--open', 'open the URL in the default browser')
    .option('--review', 'allow approving and rejecting held candidates from the page (read-only without it)')
    .action(async (o: Opts) => {
      const { stateDir, viewer } = await openViewer(deps, o);
      deps.stdout(`whet view: ${stateDir}${o.review ? ' (review on: the page can approve and reject)' : ' (read-only)'}\n  ${viewer.url}\nCtrl-C to stop\n`);
      if (o.open) await openBrowser(viewer.url, deps);
      // Serves until the process is interrupted (Ctrl-C, SIGTERM: cli.ts aborts deps.signal).
      await new Promise<void>((resolve) => {
        if (!deps.signal) return;
        if (deps.signal.aborted) return resolve();
        deps.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await viewer.close();
    });
}
