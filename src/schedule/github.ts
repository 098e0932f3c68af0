// The nightly job as a GitHub Actions workflow: a schedule trigger with the cron expression (which GitHub
// reads in UTC), the state directory carried from one night to the next, whet made available (the
// project's `npm ci` when its package.json lists whetstone, then `npx --no-install whet`; else `npm install
// -g` of the --package spec, then `whet`; install.ts refuses anything else), `whet nightly` with the engine
// keys in its own step's env (no other step sees one),
// and the night's reports uploaded as an artifact: `whet report --nightly`, every target of the night (the
// newest run alone is one target). A drift alert makes the nightly step fail (exit 1), and that is
// exactly the night the trend must keep and someone will want to read: so the state is restored
// and saved by the split actions/cache/restore + actions/cache/save with `if: always()` (the combined
// actions/cache saves only after a successful job), under a new key each run (an entry is immutable once
// written) restored by prefix, and the upload runs `if: always()` too.
import { join } from 'node:path';
import { NIGHTLY_CALLS_NOTE, type ScheduleTarget } from './units.js';
import { KEYS_NOTE, keysEnv, placeWorkflow, reportAndSaveSteps, restoreStateStep, sh, whetJob, whetSetup, workflowHead } from './github-jobs.js';
import type { WhetInstall } from './install.js';

export const WORKFLOW_FILE = join('.github', 'workflows', 'whetstone-nightly.yml');

export function githubWorkflow(t: ScheduleTarget, repoRoot: string, install: WhetInstall): string {
  const setup = whetSetup(install);
  const { project, config, state, prefix } = placeWorkflow(t, repoRoot);
  const head = workflowHead(t, 'whetstone nightly', [
    `${NIGHTLY_CALLS_NOTE}.`,
    '# The state directory is carried between nights for the history and the trend; the baseline cache inside',
    '# it serves whet run / whet baseline, never whet nightly.',
  ]);
  return `${head}${whetJob({
    id: 'nightly',
    timeout: 120,
    project,
    setup: setup.steps,
    steps: `${restoreStateStep(state)}${KEYS_NOTE}      - name: whet nightly
${keysEnv(t.keyEnvs)}        run: |
          ${setup.whet} nightly -c ${sh(config)}
${reportAndSaveSteps({ whet: setup.whet, config, state, prefix })}`,
  })}`;
}
