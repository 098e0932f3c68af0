// The bench's `whet status` row on a large loop run (issue 43): a loop run of N tasks on the mock engine
// (one iteration: a baseline, candidates, a minibatch and, when one reaches the threshold, a candidate's
// evaluation), then `whet status` the first time — every artifact and results log verified, hashed and
// summed — and again, when what it verified clean is remembered (src/inspect/verified-memo.ts). Each the
// median of H fresh processes; the first one's memo is removed before each of its runs.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeBenchSuite } from './bench-suite.js';
import { cli, mb, median, ratio, sample, secs } from './bench-measure.js';

export async function statusLoopRow(root: string, n: number, heavy: number, row: (...cells: string[]) => void): Promise<void> {
  const dir = join(root, `status-loop-${n}`);
  writeBenchSuite(join(dir, 'skill'), n);
  writeFileSync(
    join(dir, 'pipeline.yaml'),
    'state_dir: state\nengine: {type: mock}\ntargets: [{skill: skill, suite: skill/tasks.yaml}]\nloop: {max_iterations: 1, candidates_per_iteration: 3, proposers: [feedback, structural]}\n',
  );
  const run = await sample(dir, [cli, 'run', '--mock']);
  if (run.exitCode !== 0) throw new Error(`the ${n}-task loop run for the status row failed (${run.exitCode})`);
  const memo = join(dir, 'state', 'cache', 'verified');
  const first = await median(heavy, () => {
    rmSync(memo, { recursive: true, force: true });
    return sample(dir, [cli, 'status']);
  });
  await sample(dir, [cli, 'status']);
  const again = await median(heavy, () => sample(dir, [cli, 'status']));
  const bare = await median(heavy, () => sample(dir, ['-e', '0']));
  const runs = readdirSync(join(dir, 'state', 'runs')).length;
  row(
    `\`whet status\` of a ${n.toLocaleString('en-US')}-task loop run (${runs} run, ${secs(run.wallMs)} to make)`,
    `first ${secs(first.wallMs)} · ${first.cpuMs} ms CPU · ${mb(first.maxRssMb)}; again (verified files remembered) ${secs(again.wallMs)} · ${again.cpuMs} ms CPU · ${mb(again.maxRssMb)}`,
    `bare \`node -e 0\` ${secs(bare.wallMs)}`,
    `${ratio(first.wallMs / bare.wallMs)} first · ${ratio(again.wallMs / bare.wallMs)} again`,
    'reported (issue 43)',
  );
}
