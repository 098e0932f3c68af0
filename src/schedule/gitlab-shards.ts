// The nightly as a GitLab CI pipeline sharded with `parallel: N` (`whet schedule print --via gitlab --shards
// N`): N copies of the shard job, each shard CI_NODE_INDEX of CI_NODE_TOTAL, run `whet nightly --shard` and
// keep their shard directory as an artifact; a merge job `needs:` all of them (and runs after a failed one
// too: the merge then refuses, naming the missing shard, so the night fails loudly), runs `whet nightly
// --merge`, writes the reports, keeps them and the night as artifacts, and exits with the verdict (1 on a
// drift alert). GitLab reads no schedule from the file: the comment names the pipeline schedule to create.
// Engine keys are CI/CD variables, which GitLab hands every job as environment variables: none is written
// here. Print only: a project's .gitlab-ci.yml is its own, so this file is included from it, not written.
import { UsageError } from '../core/errors.js';
import { INSTALL_SPEC, isDependencyOf } from '../core/package-info.js';
import { inRepo, sh } from './github-jobs.js';
import { marker, type ScheduleTarget } from './units.js';

export const GITLAB_FILE = '.gitlab/whetstone-nightly-shards.yml';
export const GITLAB_IMAGE = 'node:20';
/** The variable the pipeline schedule sets, so the project's other pipelines do not start a night. */
export const GITLAB_TRIGGER = 'WHETSTONE_NIGHTLY';
const DEFAULT_KEY_ENVS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'];

/** Script lines that make `whet` runnable in the job, and how the later lines call it. */
function whetSetup(projectDir: string): { lines: string[]; whet: string; variables: string } {
  if (isDependencyOf(projectDir)) return { lines: ['npm ci'], whet: 'npx whet', variables: '' };
  // Not a dependency of the project: installed for the job. Add it to package.json (npm install --save-dev
  // whetstone) and print this file again to pin it with the project: the jobs then run npm ci and npx whet.
  return { lines: ['npm install -g "$WHETSTONE_PACKAGE"'], whet: 'whet', variables: `  # an npm package spec: a registry version, a tarball in the repository or a git URL\n  WHETSTONE_PACKAGE: ${JSON.stringify(INSTALL_SPEC)}\n` };
}

const list = (lines: string[]) => lines.map((l) => `    - ${JSON.stringify(l)}`).join('\n');

export function gitlabShardedPipeline(t: ScheduleTarget, repoRoot: string, shards: number, image: string = GITLAB_IMAGE): string {
  if (!Number.isInteger(shards) || shards < 2 || shards > 200) throw new UsageError(`--shards ${shards}: give 2–200 for --via gitlab (GitLab's parallel: allows up to 200; one machine needs no shards)`);
  const project = inRepo(repoRoot, t.projectDir) ?? '.';
  const config = sh(inRepo(t.projectDir, t.configPath) ?? t.configPath);
  const state = inRepo(repoRoot, t.stateDir);
  // Artifacts and the cache take paths inside the checkout; a state directory elsewhere would be lost.
  if (!state) throw new UsageError(`the state directory ${t.stateDir} is outside the repository ${repoRoot}: set state_dir in the config to a folder inside it`);
  const prefix = project === '.' ? '' : `${project}/`;
  const setup = whetSetup(t.projectDir);
  const keys = [...new Set([...(t.keyEnvs ?? []), ...DEFAULT_KEY_ENVS])];
  const enter = project === '.' ? [] : [`cd ${sh(project)}`];
  const shardScript = [...enter, ...setup.lines, `${setup.whet} nightly -c ${config} --shard "$CI_NODE_INDEX/$CI_NODE_TOTAL" --state-root "whetstone-shards/$CI_NODE_INDEX"`];
  const mergeScript = [
    ...enter,
    ...setup.lines,
    // The verdict is kept, the reports written whatever it is, and then it is the job's exit code.
    `verdict=0; ${setup.whet} nightly -c ${config} --merge whetstone-shards/* || verdict=$?`,
    `${setup.whet} report --nightly --format html -o whetstone-report.html -c ${config} || true`,
    `${setup.whet} report --nightly --format md -o whetstone-report.md -c ${config} || true`,
    'exit "$verdict"',
  ];
  return `${marker(t.projectDir)}
# GitLab reads no schedule from this file. Save it as ${GITLAB_FILE}, include it from .gitlab-ci.yml
# (include: [{local: ${GITLAB_FILE}}]; if .gitlab-ci.yml lists stages, add whetstone-shards and
# whetstone-merge), then create a pipeline schedule (Build → Pipeline schedules) with the cron
# ${JSON.stringify(t.cron)}, time zone UTC, and the variable ${GITLAB_TRIGGER} = 1.
# Engine API keys: CI/CD variables (Settings → CI/CD → Variables, masked) named ${keys.join(', ')};
# GitLab passes them to every job as environment variables, so none is written here.
stages:
  - whetstone-shards
  - whetstone-merge
variables:
${setup.variables}  GIT_DEPTH: "1"
whetstone-shard:
  stage: whetstone-shards
  image: ${JSON.stringify(image)}
  rules:
    - if: '$${GITLAB_TRIGGER} == "1"'
  # Which tasks each shard runs needs no state: every shard computes the same plan.
  parallel: ${shards}
  timeout: 2h
  script:
${list(shardScript)}
  artifacts:
    name: "whetstone-shard-$CI_NODE_INDEX"
    paths:
      - ${prefix}whetstone-shards/
    expire_in: 1 week
whetstone-merge:
  stage: whetstone-merge
  image: ${JSON.stringify(image)}
  needs:
    - job: whetstone-shard
      artifacts: true
  rules:
    # Also after a failed shard: the merge then refuses, naming the missing shard, and the night fails.
    - if: '$${GITLAB_TRIGGER} == "1"'
      when: always
  timeout: 1h
  # The state directory of earlier nights (history, trend), saved again on the alerting nights too.
  cache:
    key: whetstone-state
    paths:
      - ${state}/
    when: always
  script:
${list(mergeScript)}
  artifacts:
    name: "whetstone-nightly-$CI_PIPELINE_ID"
    when: always
    paths:
      - ${state}/nightly/
      - ${prefix}whetstone-report.html
      - ${prefix}whetstone-report.md
    expire_in: 30 days
`;
}
