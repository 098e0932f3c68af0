// npm run bench -- --shards N [--tasks T --concurrency C]: the sharded evaluation against the unsharded one.
// Runs the unsharded standalone evaluation of a generated T-task suite on the instant mock engine, then N
// shard processes at once (each `--shard i/N` with its own state directory), then `whet merge` of them; checks
// the merged artifact equals the unsharded one on the measured fields (the check the sharding tests make) and
// prints the slowest shard, the merge, the merge's cost per 10,000 tasks and its peak RSS (each process's
// own, taken by the bench's exit probe, bench-probe.cts). Returns false when the artifacts differ.
import { join } from 'node:path';
import { sample } from './bench-measure.js';
import { firstDifference, measuredFields } from './measured-fields.js';
import { writeBenchSuite } from './bench-suite.js';

/** One whet process, measured as every other bench row is (bench-measure.ts: the exit probe). */
const whet = (cli: string, dir: string, args: string[]) => sample(dir, [cli, ...args]);

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function benchShards(cli: string, root: string, tasks: number, shards: number, conc: number): Promise<boolean> {
  if (!Number.isInteger(shards) || shards < 1) throw new Error(`--shards must be a positive integer, got ${shards}`);
  const dir = join(root, 'shards');
  const suite = writeBenchSuite(dir, tasks);
  const evaluate = ['evaluate', '--standalone', '--task-suite', suite, '--skill-path', dir, '--mock', '--concurrency', String(conc)];

  const plain = await whet(cli, dir, [...evaluate, '--state-root', join(dir, 'plain'), '--output', join(dir, 'plain.json')]);
  const ids = Array.from({ length: shards }, (_, k) => k + 1);
  // All shards at once, as separate machines would run them; on one machine they share its cores.
  const runs = await Promise.all(ids.map((i) => whet(cli, dir, [...evaluate, '--shard', `${i}/${shards}`, '--state-root', join(dir, `shard-${i}`)])));
  const bad = runs.findIndex((r) => r.exitCode !== 0);
  if (bad >= 0) throw new Error(`shard ${bad + 1}/${shards} exited ${runs[bad]!.exitCode} (a shard gives no verdict: 0 expected)`);
  const merge = await whet(cli, dir, ['merge', ...ids.map((i) => join(dir, `shard-${i}`)), '--state-root', join(dir, 'merged'), '--output', join(dir, 'merged.json')]);

  const diff = firstDifference(measuredFields(join(dir, 'plain.json')), measuredFields(join(dir, 'merged.json')));
  const slowest = Math.max(...runs.map((r) => r.wallMs));
  const per10k = (merge.wallMs * 10_000) / tasks;
  const rows: [string, string][] = [
    ['unsharded evaluation (one process)', `${sec(plain.wallMs)} · peak RSS ${plain.maxRssMb.toFixed(0)} MB`],
    [`slowest of ${shards} concurrent shards`, `${sec(slowest)} · peak RSS ${Math.max(...runs.map((r) => r.maxRssMb)).toFixed(0)} MB`],
    [`merge of ${shards} shards`, `${sec(merge.wallMs)} · peak RSS ${merge.maxRssMb.toFixed(0)} MB`],
    [`merge per 10,000 tasks${tasks === 10_000 ? '' : ' (scaled linearly)'}`, `${sec(per10k)} · ${(merge.wallMs / plain.wallMs).toFixed(2)} × the unsharded evaluation's time`],
    ['merged artifact = unsharded (measured fields, exit code)', diff === undefined && merge.exitCode === plain.exitCode ? 'yes' : `NO: ${diff ?? `exit ${merge.exitCode} vs ${plain.exitCode}`}`],
  ];
  console.log(`sharded evaluation, ${tasks} tasks on the instant mock engine, concurrency ${conc}, ${shards} shards (wall time from process start)\n`);
  console.log('| measured | result |\n|---|---|');
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
  return diff === undefined && merge.exitCode === plain.exitCode;
}
