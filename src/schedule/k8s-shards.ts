// The nightly as Kubernetes objects (`whet schedule print --via k8s --shards N`), for `kubectl apply -f`:
// a shared volume (PersistentVolumeClaim), a CronJob whose Job is an Indexed Job (`completionMode:
// Indexed`, N completions run in parallel; each pod is shard JOB_COMPLETION_INDEX+1 and writes its shard
// directory to the shared volume under the night's date), and a merge CronJob on the same schedule whose
// init container waits for all N shards of the night, then runs `whet nightly --merge`, keeping the
// history on the volume; its exit code (1 on a drift alert, 2 on a missing shard) is the Job's outcome.
// Engine keys come from a Secret (envFrom), never from these files, and only into the container that runs
// whet (issue 39): a --package install runs in an init container with no Secret, into an emptyDir the whet
// container then reads. The image is the project's own (the repository, with `npm ci` done when
// package.json lists whetstone — installed when the image is built, where no key is): whetstone does not
// build or push it. Each whet container starts in the image's folder, the repository root, and enters the
// project folder first: `npx` finds the project's own whet only beside its package.json.
import { stringify } from 'yaml';
import { UsageError } from '../core/errors.js';
import { sh } from './github-jobs.js';
import { describeInstall, NPX_WHET, type WhetInstall } from './install.js';
import { marker, type ScheduleTarget } from './units.js';

export const K8S_SECRET = 'whetstone-engine-keys';
const VOLUME = 'whetstone-shards';
const WAIT_SECONDS = 6 * 3600;
/** Where a --package install puts whet: an emptyDir shared by the install and the whet container. */
const WHET_PREFIX = '/opt/whetstone';

/** `project`: the project folder from the repository root ("." for the root); `config`: the config from the project folder. */
export function k8sShardedManifests(t: ScheduleTarget, shards: number, image: string, where: { project: string; config: string }, install: WhetInstall): string {
  if (!Number.isInteger(shards) || shards < 2 || shards > 256) throw new UsageError(`--shards ${shards}: give 2–256 (one machine needs no shards)`);
  const enter = where.project === '.' ? '' : `cd ${sh(where.project)} || exit 2; `;
  const night = 'night=$(date -u +%F)';
  const config = sh(where.config);
  const fromPackage = install.kind === 'package';
  const whet = fromPackage ? `${WHET_PREFIX}/bin/whet` : NPX_WHET;
  const whetMount = fromPackage ? [{ name: 'whetstone', mountPath: WHET_PREFIX }] : [];
  // The install, in an init container of its own: no Secret, so its install scripts never see a key.
  const installer = fromPackage
    ? [{ name: 'install-whetstone', image, command: ['sh', '-c', `npm install -g --prefix ${WHET_PREFIX} "$WHETSTONE_PACKAGE"`], env: [{ name: 'WHETSTONE_PACKAGE', value: install.spec }], volumeMounts: whetMount }]
    : [];
  const pod = (name: string, script: string, waiting: Record<string, unknown>[] = []) => ({
    restartPolicy: 'Never',
    ...(installer.length + waiting.length ? { initContainers: [...waiting, ...installer] } : {}),
    containers: [
      {
        name,
        image,
        command: ['sh', '-c', script],
        envFrom: [{ secretRef: { name: K8S_SECRET, optional: true } }],
        volumeMounts: [{ name: 'shards', mountPath: '/shards' }, ...whetMount],
      },
    ],
    volumes: [{ name: 'shards', persistentVolumeClaim: { claimName: VOLUME } }, ...(fromPackage ? [{ name: 'whetstone', emptyDir: {} }] : [])],
  });
  const shardScript = `${enter}${night}; i=$((JOB_COMPLETION_INDEX + 1)); dir=/shards/$night/shard-$i; rm -rf "$dir" && ${whet} nightly -c ${config} --shard "$i/${shards}" --state-root "$dir" && touch "/shards/$night/done-$i"`;
  const waitScript = `${night}; until [ "$(ls /shards/$night/done-* 2>/dev/null | wc -l)" -ge ${shards} ]; do sleep 30; done`;
  const mergeScript = `${enter}${night}; ${whet} nightly -c ${config} --merge /shards/$night/shard-* --state-root /shards/state`;
  const schedule = { schedule: t.cron, timeZone: 'Etc/UTC', concurrencyPolicy: 'Forbid' };
  const docs = [
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: VOLUME }, spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '10Gi' } } } },
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'whetstone-nightly-shards' },
      spec: {
        ...schedule,
        jobTemplate: { spec: { completionMode: 'Indexed', completions: shards, parallelism: shards, backoffLimit: shards, template: { spec: pod('shard', shardScript) } } },
      },
    },
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'whetstone-nightly-merge' },
      spec: {
        ...schedule,
        jobTemplate: {
          spec: {
            backoffLimit: 0,
            activeDeadlineSeconds: WAIT_SECONDS + 3600,
            template: {
              spec: pod('merge', mergeScript, [{ name: 'wait-for-shards', image, command: ['sh', '-c', waitScript], volumeMounts: [{ name: 'shards', mountPath: '/shards' }] }]),
            },
          },
        },
      },
    },
  ];
  const head = `${marker(t.projectDir)}
# kubectl apply -f this file. Engine keys: kubectl create secret generic ${K8S_SECRET} --from-literal=NAME=… (one per key variable);
# only the containers that run whet read it. ${describeInstall(install)}.
# The image must hold the repository${fromPackage ? '' : ` with npm ci done in ${where.project === '.' ? 'its root' : where.project}`}; the schedule is read in UTC (timeZone: Etc/UTC).
`;
  return head + docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}
