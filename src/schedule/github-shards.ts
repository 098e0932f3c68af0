// The nightly job as a GitHub Actions workflow sharded over a job matrix (`whet schedule … --via github
// --shards N`): a plan job gives the matrix of shard indices; N shard jobs
// (`fail-fast: false`, so one failing shard does not cancel the others) each run `whet nightly --shard
// i/N` on a copy and upload their shard directories; a merge job downloads them all, runs `whet nightly
// --merge` — the merge refuses a missing shard, so a failed shard fails the night loudly — uploads the
// reports and saves the state, and its exit code is the night's verdict (1 on a drift alert). Engine keys
// come from repository secrets, never from the file, into the env of the steps that run whet nightly only. Kept apart from github.ts (the unsharded workflow).
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { ACTIONS, KEYS_NOTE, keysEnv, placeWorkflow, reportAndSaveSteps, restoreStateStep, sh, whetJob, whetSetup, workflowHead } from './github-jobs.js';
import type { WhetInstall } from './install.js';
import type { ScheduleTarget } from './units.js';

export const SHARDED_WORKFLOW_FILE = join('.github', 'workflows', 'whetstone-nightly-shards.yml');

export function githubShardedWorkflow(t: ScheduleTarget, repoRoot: string, shards: number, install: WhetInstall): string {
  if (!Number.isInteger(shards) || shards < 2 || shards > 256) throw new UsageError(`--shards ${shards}: give 2–256 (one machine needs no shards)`);
  const { project, config, state, prefix } = placeWorkflow(t, repoRoot);
  const matrix = JSON.stringify(Array.from({ length: shards }, (_, i) => i + 1));
  // The same install as the one-machine workflow: npx only when the project depends on whetstone.
  const whet = whetSetup(install);
  const plan = `  plan:
    runs-on: ubuntu-latest
    outputs:
      shards: \${{ steps.plan.outputs.shards }}
    steps:
      # The shards' matrix. Which tasks each shard runs needs no state: every shard computes the same plan.
      - id: plan
        run: echo 'shards=${matrix}' >> "$GITHUB_OUTPUT"
`;
  const shard = whetJob({
    id: 'shard',
    head: `    needs: plan
    strategy:
      fail-fast: false
      matrix:
        shard: \${{ fromJSON(needs.plan.outputs.shards) }}
`,
    timeout: 120,
    project,
    setup: whet.steps,
    steps: `${KEYS_NOTE}      - name: whet nightly --shard \${{ matrix.shard }}/${shards}
${keysEnv(t.keyEnvs)}        run: |
          ${whet.whet} nightly -c ${sh(config)} --shard "\${{ matrix.shard }}/${shards}" --state-root whetstone-shard
      - uses: ${ACTIONS.upload}
        with:
          name: whetstone-shard-\${{ matrix.shard }}
          path: ${prefix}whetstone-shard/runs/
          if-no-files-found: error
`,
  });
  const merge = whetJob({
    id: 'merge',
    head: `    needs: [plan, shard]
    # Also after a failed shard: the merge then refuses, naming the missing shard, and the night fails.
    if: \${{ !cancelled() }}
`,
    timeout: 60,
    project,
    setup: whet.steps,
    steps: `${restoreStateStep(state)}      - uses: ${ACTIONS.download}
        with:
          pattern: whetstone-shard-*
          path: ${prefix}whetstone-shards
      - name: whet nightly --merge (exit 1 on a drift alert, 2 on a missing or mismatched shard)
${keysEnv(t.keyEnvs)}        run: |
          ${whet.whet} nightly -c ${sh(config)} --merge whetstone-shards/*
${reportAndSaveSteps({ whet: whet.whet, config, state, prefix })}`,
  });
  return `${workflowHead(t, `whetstone nightly (${shards} shards)`)}${plan}${shard}${merge}`;
}
