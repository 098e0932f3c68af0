// npm run demo: the whole improvement loop on the bundled example, offline on the mock engine.
// The example is copied into state/demo/ first, so promotions change the copy and never the repository's
// own example; every run of the demo starts from the same skill and ends with the same decisions.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const demo = join(root, 'state', 'demo');
rmSync(demo, { recursive: true, force: true });
mkdirSync(demo, { recursive: true });
cpSync(join(root, 'examples', 'release-notes'), join(demo, 'release-notes'), { recursive: true });
writeFileSync(
  join(demo, 'pipeline.yaml'),
  [
    '# The demo project: a copy of examples/release-notes, improved offline on the mock engine.',
    'state_dir: state',
    'engine: {type: mock}',
    'targets:',
    '  - {skill: release-notes, suite: release-notes/tasks.yaml}',
    'loop: {max_iterations: 4, plateau_window: 2, candidates_per_iteration: 3, proposers: [feedback, structural]}',
    'thresholds: {min_delta: 0, max_new_failures: 0, significance: 0.05}',
    '',
  ].join('\n'),
);
process.chdir(demo);
process.stderr.write(`demo project: ${demo}\n`);
await main(['run', '-c', 'pipeline.yaml']);
