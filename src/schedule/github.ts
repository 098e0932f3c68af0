// The nightly job as a GitHub Actions workflow: a schedule trigger with the cron expression (which GitHub
// reads in UTC), the state directory carried from one night to the next with actions/cache (saved under a
// new key each run and restored by prefix, because a cache entry is immutable once written), `npm ci`
// then `npx whet nightly`, and the night's reports uploaded as an artifact even when a drift alert makes
// the nightly step fail (exit 1), since that is exactly when someone will want to read them.
import { join, relative, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { marker, type ScheduleTarget } from './units.js';

export const WORKFLOW_FILE = join('.github', 'workflows', 'whetstone-nightly.yml');

/** A path inside the repository as the workflow spells it ("." for the root), or undefined when it is outside. */
function inRepo(repoRoot: string, p: string): string | undefined {
  const r = relative(repoRoot, p);
  if (r.startsWith('..') || r.startsWith(sep)) return undefined;
  return r === '' ? '.' : r.split(sep).join('/');
}

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function githubWorkflow(t: ScheduleTarget, repoRoot: string): string {
  const project = inRepo(repoRoot, t.projectDir) ?? '.';
  const config = inRepo(t.projectDir, t.configPath) ?? t.configPath;
  const state = inRepo(repoRoot, t.stateDir);
  // The cache and the upload name paths inside the checkout; a state directory elsewhere would be lost.
  if (!state) throw new UsageError(`the state directory ${t.stateDir} is outside the repository ${repoRoot}: set state_dir in the config to a folder inside it`);
  return `${marker(t.projectDir)}
# The schedule below is read by GitHub in UTC.
name: whetstone nightly
on:
  schedule:
    - cron: ${JSON.stringify(t.cron)}
  workflow_dispatch: {}
permissions:
  contents: read
concurrency:
  group: whetstone-nightly
  cancel-in-progress: false
jobs:
  nightly:
    runs-on: ubuntu-latest
    timeout-minutes: 120
    defaults:
      run:
        working-directory: ${JSON.stringify(project)}
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - name: Restore the state directory of earlier nights
        uses: actions/cache@v4
        with:
          path: ${JSON.stringify(state)}
          key: whetstone-state-\${{ github.run_id }}
          restore-keys: |
            whetstone-state-
      - run: npm ci
      - name: whet nightly
        run: |
          npx whet nightly -c ${sh(config)}
      - name: Report of the newest run
        if: always()
        run: |
          npx whet report --format html -o whetstone-report.html -c ${sh(config)} || true
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: whetstone-nightly-\${{ github.run_id }}
          path: |
            ${state}/nightly/
            ${project === '.' ? '' : `${project}/`}whetstone-report.html
          if-no-files-found: warn
`;
}
