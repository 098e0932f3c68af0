// npm run demo: the whole improvement loop on the bundled example, offline on the mock engine.
// The example is copied into state/demo/ first, so promotions change the copy and never the repository's
// own example; every run of the demo starts from the same skill and ends with the same decisions.
// The demo's project (its pipeline.yaml and state directory) lives under state/demo/, where a bare
// `whet status` from the repository root does not look: so it ends with the commands that show what it
// did, spelled as they must be typed from the folder the demo was started in.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../src/cli.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const startDir = process.cwd();
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

/** A path as typed from the folder the demo started in (relative when inside it, else absolute). */
function typed(p: string): string {
  const r = relative(startDir, p);
  const s = r === '' ? '.' : r.startsWith('..') || isAbsolute(r) ? p : r;
  return /^[\w./@:+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const ac = new AbortController();
let interrupts = 0;
// First Ctrl-C: stop at the next task boundary, like whet itself; a second one leaves at once.
process.on('SIGINT', () => (++interrupts > 1 ? process.exit(130) : ac.abort()));
process.stderr.write(`demo project: ${demo}\n`);
const cfg = `-c ${typed(join(demo, 'pipeline.yaml'))}`;
// Run from where the demo was started, like the commands it prints, so every path it prints is typed from there.
// The demo's pipeline.yaml names the mock engine, so its run would improve a copy in the state directory
// (issue 41); its skill is already its own copy (above), so it passes --apply and the keep is applied there.
const code = await runCli(['run', '--apply', ...cfg.split(' ')], {
  cwd: startDir,
  env: process.env,
  now: () => new Date(),
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  signal: ac.signal,
  tty: process.stderr.isTTY === true,
});

// The bin users run (package.json "bin": the bundled CLI).
const whet = `node ${typed(join(root, 'dist', 'bin', 'whet.js'))}`;
const lines = [
  '',
  `the mock engine is not a model: it answers by quoting the skill, so what it kept shows the loop at work, not a better skill.`,
  `The demo's skill is its own copy of examples/release-notes (${typed(join(demo, 'release-notes'))}/), so it ran with --apply and the keep was applied there; the repository's example is unchanged.`,
  `In a project of your own, a run on the mock engine (whet run --mock, or engine: {type: mock} in pipeline.yaml) applies a keep only to a copy in the state directory (--apply to edit the skill itself).`,
  '',
  `what the demo did — its project is ${typed(demo)}/, so name its config (-c) from here:`,
  `  ${whet} status ${cfg}    # the run: iterations, decisions, engine calls`,
  `  ${whet} show ${cfg}      # every iteration, each gate check`,
  `  ${whet} report ${cfg}    # the evidence report of the run's outcome`,
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exitCode = code;
