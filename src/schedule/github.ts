// The nightly job as a GitHub Actions workflow: a schedule trigger with the cron expression (which GitHub
// reads in UTC), the state directory carried from one night to the next, whet made available (the
// project's `npm ci` when its package.json lists whetstone, then `npx whet`; else `npm install -g`, then
// `whet`: a project that installed whetstone globally has nothing for `npx` to find), `whet nightly`,
// and the night's reports uploaded as an artifact: `whet report --nightly`, every target of the night (the
// newest run alone is one target). A drift alert makes the nightly step fail (exit 1), and that is
// exactly the night the trend must keep and someone will want to read: so the state is restored
// and saved by the split actions/cache/restore + actions/cache/save with `if: always()` (the combined
// actions/cache saves only after a successful job), under a new key each run (an entry is immutable once
// written) restored by prefix, and the upload runs `if: always()` too.
import { join, relative, sep } from 'node:path';
import { UsageError } from '../core/errors.js';
import { INSTALL_SPEC, isDependencyOf } from '../core/package-info.js';
import { marker, NIGHTLY_CALLS_NOTE, type ScheduleTarget } from './units.js';

export const WORKFLOW_FILE = join('.github', 'workflows', 'whetstone-nightly.yml');

/** A path inside the repository as the workflow spells it ("." for the root), or undefined when it is outside. */
export function inRepo(repoRoot: string, p: string): string | undefined {
  const r = relative(repoRoot, p);
  if (r.startsWith('..') || r.startsWith(sep)) return undefined;
  return r === '' ? '.' : r.split(sep).join('/');
}

export const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Keys every run needs even when the config names none: the CLI engines (claude, codex) read these too. */
const DEFAULT_KEY_ENVS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'];

/** The job's env block: each key variable read from the repository secret of the same name. */
export function envBlock(keyEnvs: readonly string[] = []): string {
  const names = [...new Set([...keyEnvs, ...DEFAULT_KEY_ENVS])];
  return names.map((n) => `      ${n}: \${{ secrets.${n} }}`).join('\n');
}

/** The steps that make `whet` runnable in the job, and how the later steps call it. */
export function whetSetup(projectDir: string): { steps: string; whet: string } {
  if (isDependencyOf(projectDir)) {
    return { steps: '      # whetstone is a dependency in package.json: npm ci installs it, npx runs it.\n      - run: npm ci', whet: 'npx whet' };
  }
  return {
    steps: `      # package.json here does not list whetstone (or there is none): install it for the job. To pin it
      # with the project instead, add it as a dependency (npm install --save-dev whetstone) and
      # print this workflow again: it then runs npm ci and npx whet.
      - name: Install whetstone
        env:
          # an npm package spec: a registry version, a tarball in the repository (./whetstone-x.y.z.tgz)
          # or a git URL
          WHETSTONE_PACKAGE: ${INSTALL_SPEC}
        run: npm install -g "$WHETSTONE_PACKAGE"`,
    whet: 'whet',
  };
}

export function githubWorkflow(t: ScheduleTarget, repoRoot: string): string {
  const setup = whetSetup(t.projectDir);
  const project = inRepo(repoRoot, t.projectDir) ?? '.';
  const config = inRepo(t.projectDir, t.configPath) ?? t.configPath;
  const state = inRepo(repoRoot, t.stateDir);
  // The cache and the upload name paths inside the checkout; a state directory elsewhere would be lost.
  if (!state) throw new UsageError(`the state directory ${t.stateDir} is outside the repository ${repoRoot}: set state_dir in the config to a folder inside it`);
  return `${marker(t.projectDir)}
# The schedule below is read by GitHub in UTC.
${NIGHTLY_CALLS_NOTE}.
# The state directory is carried between nights for the history and the trend; the baseline cache inside
# it serves whet run / whet baseline, never whet nightly.
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
    # Engine API keys, each from the repository secret of the same name (Settings → Secrets and variables →
    # Actions). Add one for every api_key_env your pipeline.yaml names; a mock-only config needs none, and an
    # unset secret is passed as an empty value, which whet treats as not set.
    env:
${envBlock(t.keyEnvs)}
    defaults:
      run:
        working-directory: ${JSON.stringify(project)}
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
${restoreStateStep(state)}${setup.steps}
      - name: whet nightly
        run: |
          ${setup.whet} nightly -c ${sh(config)}
${reportAndSaveSteps({ whet: setup.whet, config, state, prefix: project === '.' ? '' : `${project}/` })}`;
}

/**
 * The state key of one workflow run: each run saves its own, and the next restores the newest. run_attempt
 * too: a re-run of a failed night would otherwise collide with the key its first attempt saved.
 */
export const STATE_KEY = 'whetstone-state-${{ github.run_id }}-${{ github.run_attempt }}';

/** The step that restores the state directory of earlier nights (the newest saved one). */
export function restoreStateStep(state: string | undefined): string {
  return `      - name: Restore the state directory of earlier nights
        uses: actions/cache/restore@v4
        with:
          path: ${JSON.stringify(state)}
          key: ${STATE_KEY}
          restore-keys: |
            whetstone-state-
`;
}

/**
 * The night's last steps, in the one-machine and the sharded workflow alike: the report of every target,
 * uploaded with the day files, and the state directory saved, the alerting nights too.
 */
export function reportAndSaveSteps(o: { whet: string; config: string; state: string | undefined; prefix: string }): string {
  return `      - name: Report of the night, every target
        if: always()
        run: |
          ${o.whet} report --nightly --format html -o whetstone-report.html -c ${sh(o.config)} || true
          ${o.whet} report --nightly --format md -o whetstone-report.md -c ${sh(o.config)} || true
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: whetstone-nightly-\${{ github.run_id }}
          path: |
            ${o.state}/nightly/
            ${o.prefix}whetstone-report.html
            ${o.prefix}whetstone-report.md
          if-no-files-found: warn
      - name: Save the state directory, the alerting nights too
        if: always()
        uses: actions/cache/save@v4
        with:
          path: ${JSON.stringify(o.state)}
          key: ${STATE_KEY}
`;
}
