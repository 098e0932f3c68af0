// What the one-machine and the sharded GitHub Actions workflows (github.ts, github-shards.ts) are made of,
// written once: the actions they use and their versions, the workflow's head (schedule, permissions, one
// night at a time), a job (runner, time limit, the project folder), the steps that make `whet` runnable in it,
// and the engine keys from repository secrets — in the env of the steps that run whet only (issue 39): never
// at job level, where the checkout, the install and every action would see them. A new action version is
// one line of ACTIONS.
import { relative, sep } from 'node:path';
import { UsageError } from '../core/errors.js';
import { NPX_WHET, type WhetInstall } from './install.js';
import { marker, type ScheduleTarget } from './units.js';

/** Every action a generated workflow uses, at the version it is pinned to. */
export const ACTIONS = {
  checkout: 'actions/checkout@v4',
  setupNode: 'actions/setup-node@v4',
  cacheRestore: 'actions/cache/restore@v4',
  cacheSave: 'actions/cache/save@v4',
  upload: 'actions/upload-artifact@v4',
  download: 'actions/download-artifact@v4',
} as const;

/** A path inside the repository as the workflow spells it ("." for the root), or undefined when it is outside. */
export function inRepo(repoRoot: string, p: string): string | undefined {
  const r = relative(repoRoot, p);
  if (r.startsWith('..') || r.startsWith(sep)) return undefined;
  return r === '' ? '.' : r.split(sep).join('/');
}

export const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Where the workflow runs (the project folder), the config it names and the state directory it carries. */
export function placeWorkflow(t: ScheduleTarget, repoRoot: string): { project: string; config: string; state: string; prefix: string } {
  const project = inRepo(repoRoot, t.projectDir) ?? '.';
  const config = inRepo(t.projectDir, t.configPath) ?? t.configPath;
  const state = inRepo(repoRoot, t.stateDir);
  // The cache and the upload name paths inside the checkout; a state directory elsewhere would be lost.
  if (!state) throw new UsageError(`the state directory ${t.stateDir} is outside the repository ${repoRoot}: set state_dir in the config to a folder inside it`);
  return { project, config, state, prefix: project === '.' ? '' : `${project}/` };
}

/** The workflow's first lines, down to `jobs:`: GitHub reads the schedule in UTC, and one night runs at a time. */
export function workflowHead(t: ScheduleTarget, name: string, notes: string[] = []): string {
  return `${marker(t.projectDir)}
# The schedule below is read by GitHub in UTC.
${notes.map((n) => `${n}\n`).join('')}name: ${name}
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
`;
}

/** Keys every run needs even when the config names none: the CLI engines (claude, codex) read these too. */
const DEFAULT_KEY_ENVS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'];

/** The key variables a run reads: the config's api_key_env names, then the defaults. */
export const keyNames = (keyEnvs: readonly string[] = []) => [...new Set([...keyEnvs, ...DEFAULT_KEY_ENVS])];

/** A step's env block: each key variable read from the repository secret of the same name. */
export function keysEnv(keyEnvs: readonly string[] = []): string {
  return `        env:\n${keyNames(keyEnvs).map((n) => `          ${n}: \${{ secrets.${n} }}`).join('\n')}\n`;
}

/** The comment over the first step given the keys. */
export const KEYS_NOTE = `        # Engine API keys, only in the steps that run whet, each from the repository secret of the same name
        # (Settings → Secrets and variables → Actions). Add one for every api_key_env your pipeline.yaml names;
        # a mock-only config needs none, and an unset secret is passed as an empty value, which whet treats as not set.
`;

/**
 * A job that runs whet in the project folder: `head` its lines before runs-on (needs, if, strategy…),
 * `steps` its steps after the set-up (checkout, Node, whet). No job-level env: the keys are in its steps.
 */
export function whetJob(o: { id: string; head?: string; timeout: number; project: string; setup: string; steps: string }): string {
  return `  ${o.id}:
${o.head ?? ''}    runs-on: ubuntu-latest
    timeout-minutes: ${o.timeout}
    defaults:
      run:
        working-directory: ${JSON.stringify(o.project)}
    steps:
${o.setup}
${o.steps}`;
}

/** The steps that make `whet` runnable in the job (checkout, Node, whetstone), and how the later steps call it. */
export function whetSetup(install: WhetInstall): { steps: string; whet: string } {
  const node = `      - uses: ${ACTIONS.checkout}
        with:
          persist-credentials: false
      - uses: ${ACTIONS.setupNode}
        with:
          node-version: 20`;
  if (install.kind === 'dependency') {
    return { steps: `${node}\n      # whetstone is a dependency in package.json: npm ci installs it (no key in this step), npx runs it.\n      - run: npm ci`, whet: NPX_WHET };
  }
  return {
    steps: `${node}
      # whetstone from --package (no engine key in this step: its install scripts never see one). To pin
      # it with the project instead, list it in package.json and print this workflow again.
      - name: Install whetstone
        env:
          WHETSTONE_PACKAGE: ${JSON.stringify(install.spec)}
        run: npm install -g "$WHETSTONE_PACKAGE"`,
    whet: 'whet',
  };
}

/**
 * The state key of one workflow run: each run saves its own, and the next restores the newest. run_attempt
 * too: a re-run of a failed night would otherwise collide with the key its first attempt saved.
 */
export const STATE_KEY = 'whetstone-state-${{ github.run_id }}-${{ github.run_attempt }}';

/** The step that restores the state directory of earlier nights (the newest saved one). */
export function restoreStateStep(state: string): string {
  return `      - name: Restore the state directory of earlier nights
        uses: ${ACTIONS.cacheRestore}
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
export function reportAndSaveSteps(o: { whet: string; config: string; state: string; prefix: string }): string {
  return `      - name: Report of the night, every target
        if: always()
        run: |
          ${o.whet} report --nightly --format html -o whetstone-report.html -c ${sh(o.config)} || true
          ${o.whet} report --nightly --format md -o whetstone-report.md -c ${sh(o.config)} || true
      - uses: ${ACTIONS.upload}
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
        uses: ${ACTIONS.cacheSave}
        with:
          path: ${JSON.stringify(o.state)}
          key: ${STATE_KEY}
`;
}
