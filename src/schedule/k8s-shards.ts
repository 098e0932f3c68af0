// The nightly as Kubernetes objects (`whet schedule print --via k8s --shards N`), for `kubectl apply -f`:
// a shared volume (PersistentVolumeClaim), a CronJob whose Job is an Indexed Job (`completionMode:
// Indexed`, N completions run in parallel; each pod is shard JOB_COMPLETION_INDEX+1 and writes its shard
// directory to the shared volume under the night's date), and a merge CronJob on the same schedule whose
// init container waits for all N shards of the night, then runs `whet nightly --merge`, keeping the
// history on the volume; its exit code (1 on a drift alert, 2 on a missing shard) is the Job's outcome.
// Engine keys come from a Secret (envFrom), never from these files. The image is the project's own (the
// repository with `npm ci` done): whetstone does not build or push it.
import { stringify } from 'yaml';
import { UsageError } from '../core/errors.js';
import { sh } from './github-jobs.js';
import { marker, type ScheduleTarget } from './units.js';

export const K8S_SECRET = 'whetstone-engine-keys';
const VOLUME = 'whetstone-shards';
const WAIT_SECONDS = 6 * 3600;

export function k8sShardedManifests(t: ScheduleTarget, shards: number, image: string, configInImage: string): string {
  if (!Number.isInteger(shards) || shards < 2 || shards > 256) throw new UsageError(`--shards ${shards}: give 2–256 (one machine needs no shards)`);
  const night = 'night=$(date -u +%F)';
  const config = sh(configInImage);
  const pod = (name: string, script: string, extra: Record<string, unknown> = {}) => ({
    restartPolicy: 'Never',
    ...extra,
    containers: [
      {
        name,
        image,
        command: ['sh', '-c', script],
        envFrom: [{ secretRef: { name: K8S_SECRET, optional: true } }],
        volumeMounts: [{ name: 'shards', mountPath: '/shards' }],
      },
    ],
    volumes: [{ name: 'shards', persistentVolumeClaim: { claimName: VOLUME } }],
  });
  const shardScript = `${night}; i=$((JOB_COMPLETION_INDEX + 1)); dir=/shards/$night/shard-$i; rm -rf "$dir" && npx whet nightly -c ${config} --shard "$i/${shards}" --state-root "$dir" && touch "/shards/$night/done-$i"`;
  const waitScript = `${night}; until [ "$(ls /shards/$night/done-* 2>/dev/null | wc -l)" -ge ${shards} ]; do sleep 30; done`;
  const mergeScript = `${night}; npx whet nightly -c ${config} --merge /shards/$night/shard-* --state-root /shards/state`;
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
              spec: pod('merge', mergeScript, {
                initContainers: [{ name: 'wait-for-shards', image, command: ['sh', '-c', waitScript], volumeMounts: [{ name: 'shards', mountPath: '/shards' }] }],
              }),
            },
          },
        },
      },
    },
  ];
  const head = `${marker(t.projectDir)}
# kubectl apply -f this file. Engine keys: kubectl create secret generic ${K8S_SECRET} --from-literal=NAME=… (one per key variable).
# The image must hold the repository with npm ci done; the schedule is read in UTC (timeZone: Etc/UTC).
`;
  return head + docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}
